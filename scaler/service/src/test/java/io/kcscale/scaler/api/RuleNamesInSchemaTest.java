package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The API document names exactly the rules a policy may name, in the same order. */
class RuleNamesInSchemaTest {

    @Test
    void theAutoscalePolicysRuleEnumIsTheRegistrysNames() throws Exception {
        try (InputStream in = RuleNamesInSchemaTest.class.getResourceAsStream("/api/openapi.json")) {
            JsonNode rule = Json.MAPPER.readTree(in).at("/components/schemas/AutoscalePolicy/properties/rule");
            List<String> names = new ArrayList<>();
            rule.path("enum").forEach(n -> names.add(n.asText()));
            assertEquals(ScalingRules.NAMES, names);
            assertEquals(ScalingRules.KCSCALE, rule.path("default").asText());
        }
    }
}
