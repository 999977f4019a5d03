package io.kcscale.tests.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The live autoscaler on the real stack: a policy is persisted and survives a scaler restart, a dry
 * run decides without touching the connector, an applied decision goes through the scale action and
 * leaves exactly that many tasks RUNNING, and DELETE stops it. (The policy's arithmetic is unit-tested;
 * its behaviour under load steps is benchmarked in the simulator.)
 */
@Order(7)
@ExtendWith(SharedStack.class)
class AutoscalerTest {

    private static final String AUTOSCALE = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR + "/autoscale";

    @Test
    void appliesDecisionsThroughTheScaleActionAndSurvivesARestart(LocalStack stack) throws Exception {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        try (StackProbe probe = new StackProbe(stack)) {
            int tasks = Integer.parseInt(
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"));
            String before =
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).toString();

            // a dry run decides (the minimum is above the current tasks) and changes nothing
            ScalerHttp.Answer put = scaler.put(
                    AUTOSCALE,
                    "{\"minTasks\":" + (tasks + 1) + ",\"maxTasks\":" + (tasks + 1)
                            + ",\"targetLag\":1000000,\"dryRun\":true}");
            assertEquals(200, put.status(), put.raw());
            JsonNode dry = awaitDecision(scaler, "dry run");
            assertEquals("SCALE_UP", dry.path("decision").path("action").asText());
            assertEquals(tasks + 1, dry.path("decision").path("toTasks").asInt());
            assertEquals(
                    before,
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).toString(),
                    "a dry run touches nothing");

            // the policy is on disk: a killed scaler comes back with it
            stack.component("scaler").kill();
            stack.restart("scaler");
            ScalerHttp.Answer after = scaler.get(AUTOSCALE);
            assertEquals(200, after.status(), after.raw());
            assertTrue(after.body().path("policy").path("dryRun").asBoolean(), after.raw());

            // applied for real: exactly tasks + 1 RUNNING, through the same scale action a user calls
            assertEquals(
                    200,
                    scaler.put(
                                    AUTOSCALE,
                                    "{\"minTasks\":" + (tasks + 1) + ",\"maxTasks\":" + (tasks + 1)
                                            + ",\"targetLag\":1000000}")
                            .status());
            JsonNode applied = awaitDecision(scaler, "applied");
            assertTrue(
                    applied.path("outcome").asText().startsWith("applied: " + (tasks + 1) + " tasks RUNNING"),
                    applied.toString());
            assertEquals(
                    tasks + 1,
                    probe.connect.connectorStatus(StackOptions.SINK_CONNECTOR).tasksInState("RUNNING"));

            ScalerHttp.Answer stop = scaler.delete(AUTOSCALE);
            assertEquals(200, stop.status(), stop.raw());
            assertEquals(404, scaler.get(AUTOSCALE).status());
            ScalerHttp.Answer bad =
                    scaler.put(AUTOSCALE, "{\"maxTasks\":2,\"targetLag\":10,\"targetLatencySeconds\":5}");
            assertEquals(400, bad.status(), bad.raw());
            assertEquals("targetLatencySeconds", bad.body().path("field").asText());
        }
    }

    /** Polls the decisions until one has an outcome starting with {@code outcome}. */
    private static JsonNode awaitDecision(ScalerHttp scaler, String outcome) {
        return Poll.until(
                "a decision with outcome '" + outcome + "'", Duration.ofSeconds(90), Duration.ofSeconds(1), () -> {
                    JsonNode state = scaler.get(AUTOSCALE).body();
                    for (JsonNode r : state.path("decisions")) {
                        if (r.path("outcome").asText().startsWith(outcome)) {
                            return Optional.of(r);
                        }
                    }
                    throw new IllegalStateException("decisions " + state.path("decisions"));
                });
    }
}
