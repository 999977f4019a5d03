package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import io.kcscale.scaler.checks.Check;
import io.kcscale.scaler.checks.Checks;
import io.kcscale.scaler.common.Json;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The API document names exactly the rules a policy may name and the checks a report holds, in the same order. */
class RegistryNamesInSchemaTest {

    @Test
    void theAutoscalePolicysRuleEnumIsTheRegistrysNames() throws Exception {
        try (InputStream in = RegistryNamesInSchemaTest.class.getResourceAsStream("/api/openapi.json")) {
            JsonNode rule = Json.MAPPER.readTree(in).at("/components/schemas/AutoscalePolicy/properties/rule");
            List<String> names = new ArrayList<>();
            rule.path("enum").forEach(n -> names.add(n.asText()));
            assertEquals(ScalingRules.NAMES, names);
            assertEquals(ScalingRules.KCSCALE, rule.path("default").asText());
        }
    }

    @Test
    void aFindingsIdEnumIsEveryChecksId() throws Exception {
        try (InputStream in = RegistryNamesInSchemaTest.class.getResourceAsStream("/api/openapi.json")) {
            JsonNode id = Json.MAPPER.readTree(in).at("/components/schemas/Finding/properties/id");
            List<String> ids = new ArrayList<>();
            id.path("enum").forEach(n -> ids.add(n.asText()));
            assertEquals(Checks.ALL.stream().map(Check::id).toList(), ids);
        }
    }
}
