package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The API document names a decision's fields and every typed input, in the records' order, and nothing else; what is
 * not known is left out of the answer.
 */
class DecisionSchemaTest {

    private static JsonNode schema(String name) throws IOException {
        return Json.MAPPER
                .readTree(DecisionSchemaTest.class.getResource(OpenApiRoutes.RESOURCE))
                .at("/components/schemas/" + name);
    }

    private static List<String> components(Class<?> record) {
        return Arrays.stream(record.getRecordComponents())
                .map(RecordComponent::getName)
                .toList();
    }

    private static List<String> properties(JsonNode schema) {
        List<String> names = new ArrayList<>();
        schema.path("properties").fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void theDecisionAndItsInputsAreTheRecordsComponents() throws IOException {
        assertEquals(components(Decision.class), properties(schema("Decision")));
        assertEquals(components(DecisionInputs.class), properties(schema("DecisionInputs")));
    }

    @Test
    void aDecisionOnAConnectorNotObservedHasNoTasksAndAnInputNotKnownIsAbsent() {
        JsonNode unobserved = Json.MAPPER.valueToTree(Decision.unobserved(1, "s is not observed (yet)"));
        assertFalse(unobserved.has("fromTasks") || unobserved.has("toTasks"), unobserved.toString());
        assertEquals(0, unobserved.path("inputs").size(), unobserved.toString());
        JsonNode inputs = Json.MAPPER.valueToTree(new DecisionInputs.Builder()
                .lag(10)
                .latencySeconds(Double.POSITIVE_INFINITY)
                .perTaskCapacity(Double.NaN)
                .build());
        assertEquals("{\"lag\":10}", inputs.toString());
    }

    @Test
    void anInputsEnumIsItsJsonNames() throws IOException {
        List<String> names = new ArrayList<>();
        schema("DecisionInputs").at("/properties/capacityFrom/enum").forEach(n -> names.add(n.asText()));
        assertEquals(
                Arrays.stream(DecisionInputs.CapacitySource.values())
                        .map(DecisionInputs.CapacitySource::label)
                        .toList(),
                names);
    }
}
