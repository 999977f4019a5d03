package io.kcscale.tests.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The recommendation other actuators (KEDA's metrics-API trigger, an HPA) act on, from the scaler of
 * the shared stack: 404 without a policy; with a dry-run policy the route and the gauge give what the
 * policy would set, and the connector is untouched; without the policy the gauge's series is gone.
 */
@Order(7)
@ExtendWith(SharedStack.class)
class RecommendationRouteAndGaugeTest {

    private static final String SINK = StackOptions.SINK_CONNECTOR;
    private static final String AUTOSCALE = "/api/v1/connectors/" + SINK + "/autoscale";
    private static final String RECOMMENDATION = "/api/v1/connectors/" + SINK + "/recommendation";
    private static final Pattern GAUGE =
            Pattern.compile("(?m)^kcscale_recommended_tasks\\{connector=\"" + SINK + "\"} (\\S+)$");

    @Test
    void theRouteAndTheGaugeGiveWhatThePolicyWouldSet(LocalStack stack) throws Exception {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        try (StackProbe probe = new StackProbe(stack)) {
            scaler.delete(AUTOSCALE);
            ScalerHttp.Answer none = scaler.get(RECOMMENDATION);
            assertEquals(404, none.status(), none.raw());
            assertTrue(none.body().path("error").asText().contains("no autoscale policy"), none.raw());

            String before = probe.connect.connectorConfig(SINK).toString();
            int tasks = Integer.parseInt(probe.connect.connectorConfig(SINK).get("tasks.max"));
            ScalerHttp.Answer put = scaler.put(
                    AUTOSCALE,
                    "{\"minTasks\":" + (tasks + 1) + ",\"maxTasks\":" + (tasks + 1)
                            + ",\"targetLag\":1000000,\"dryRun\":true}");
            assertEquals(200, put.status(), put.raw());

            // a hold (tasks a test before left unassigned while Connect reassigns them) is answered first, as it
            // should be: the policy's own answer follows once the pipeline is whole again
            ScalerHttp.Answer answer =
                    Poll.until("the policy's recommendation", Duration.ofSeconds(90), Duration.ofSeconds(1), () -> {
                        ScalerHttp.Answer a = scaler.get(RECOMMENDATION);
                        if (a.status() == 200
                                && a.body().path("reason").asText().contains("below minTasks")) {
                            return Optional.of(a);
                        }
                        throw new IllegalStateException(a.raw());
                    });
            assertEquals(tasks + 1, answer.body().path("tasks").asInt(), answer.raw());
            assertEquals(SINK, answer.body().path("connector").asText());
            assertTrue(answer.body().path("reason").asText().contains("below minTasks"), answer.raw());
            assertTrue(answer.body().path("blockedBy").isArray(), answer.raw());

            double gauge = Poll.until(
                    "the recommendation gauge",
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(1),
                    () -> gauge(scaler)
                            .filter(g -> g == tasks + 1)
                            .map(Optional::of)
                            .orElseThrow(() -> new IllegalStateException(
                                    "kcscale_recommended_tasks is not " + (tasks + 1) + " yet: " + gauge(scaler))));
            assertEquals(tasks + 1, gauge, 0);
            assertEquals(before, probe.connect.connectorConfig(SINK).toString(), "a recommendation touches nothing");

            assertEquals(200, scaler.delete(AUTOSCALE).status());
            assertTrue(gauge(scaler).isEmpty(), "no policy, no series");
        }
    }

    private static Optional<Double> gauge(ScalerHttp scaler) {
        Matcher m = GAUGE.matcher(scaler.get("/metrics").raw());
        return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
    }
}
