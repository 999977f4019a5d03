package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * Faults, last on the shared stack: with every Connect worker killed, or Elasticsearch killed, the
 * scaler keeps answering, reports the connector degraded with the unreachable system, and recovers
 * when the system returns.
 */
@Order(9)
@ExtendWith(SharedStack.class)
class ScalerFaultTest {

    private static final String SINK = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;

    @Test
    @Order(1)
    void survivesAConnectOutage(LocalStack stack) {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        for (int i = 0; i < stack.options().workers(); i++) {
            stack.component("connect-" + i).kill();
        }
        awaitDegradedBy(scaler, "Kafka Connect");
        for (int i = 0; i < stack.options().workers(); i++) {
            stack.restart("connect-" + i);
        }
        awaitRecovered(scaler);
    }

    @Test
    @Order(2)
    void survivesAnElasticsearchOutage(LocalStack stack) throws Exception {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        stack.component("elasticsearch").kill();
        awaitDegradedBy(scaler, "Elasticsearch");
        stack.restart("elasticsearch");
        // the sink's tasks fail while their index is gone: restarting them is the operator's move, not the scaler's
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.restartConnector(StackOptions.SINK_CONNECTOR, true, true);
        }
        awaitRecovered(scaler);
    }

    private static void awaitDegradedBy(ScalerHttp scaler, String system) {
        Poll.until(
                "the scaler to report " + system + " unreachable",
                Duration.ofSeconds(60),
                Duration.ofMillis(500),
                () -> {
                    ScalerHttp.Answer a = scaler.get(SINK);
                    assertEquals(200, a.status(), "the scaler must keep answering: " + a.raw());
                    boolean named = false;
                    for (JsonNode u : a.body().path("unreachable")) {
                        named |= u.asText().startsWith(system);
                    }
                    if (!a.body().path("degraded").asBoolean() || !named) {
                        throw new IllegalStateException(
                                "unreachable " + a.body().path("unreachable"));
                    }
                    return Optional.of(a);
                });
    }

    private static void awaitRecovered(ScalerHttp scaler) {
        Poll.until(
                "the scaler to report the pipeline healthy again",
                Duration.ofSeconds(180),
                Duration.ofSeconds(1),
                () -> {
                    JsonNode s = scaler.get(SINK).body();
                    boolean allRunning = s.path("tasks").size() > 0;
                    for (JsonNode t : s.path("tasks")) {
                        allRunning &= "RUNNING".equals(t.path("state").asText());
                    }
                    if (s.path("degraded").asBoolean() || !allRunning) {
                        throw new IllegalStateException("degraded " + s.path("degraded") + ", unreachable "
                                + s.path("unreachable") + ", tasks " + s.path("tasks"));
                    }
                    return Optional.of(s);
                });
    }
}
