package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkDelayProxy;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lag's age and verdict on the real pipeline: a sink paused for 30 s while its source keeps writing reports a
 * record about 30 s old and the verdict {@code stalled}; resumed, it is {@code catching-up}, then {@code caught-up}.
 * The history route holds the pause. Its own topic, index, source, sink and scaler, on the shared stack.
 */
@org.junit.jupiter.api.Order(6)
@ExtendWith(SharedStack.class)
class PausedSinkLagTest {

    private static final String TOPIC = "lag-age";
    private static final String SINK = "lag-age-sink";
    private static final String PATH = "/api/v1/connectors/" + SINK;
    private static final long PAUSE_MILLIS = 30_000;

    @Test
    void aPausedSinkIsStalledWithTheAgeOfItsPauseThenCatchesUp(LocalStack stack) throws Exception {
        // each write waits 25 ms, so one task drains at most ~40 records/s: the 600 that wait after the pause take
        // several samples to drain, however fast the machine, and 20/s still leave it room to catch up when loaded
        try (SinkDelayProxy slow = SinkDelayProxy.start(
                        stack.endpoints().elasticsearchUrl(), Duration.ofMillis(25), Duration.ZERO, 0);
                ScratchPipeline scratch = new ScratchPipeline(stack);
                InProcessScaler scaler =
                        InProcessScaler.start(stack, Map.of("window.seconds", "10", "sample.interval.seconds", "2"))) {
            scratch.topic(TOPIC, 1);
            scratch.index(TOPIC, 1);
            scratch.source("lag-age-source", TOPIC, "symbol", 20, Map.of());
            Map<String, String> sink = new HashMap<>(scratch.sinkConfig(TOPIC, TOPIC, 1));
            URI es = stack.endpoints().elasticsearchUrl();
            sink.put(
                    "camel.sink.url",
                    sink.get("camel.sink.url").replace(es.getHost() + ":" + es.getPort(), slow.hostPort()));
            scratch.connector(SINK, sink);
            scratch.awaitRunning(SINK, 1);
            scaler.http.awaitGet(
                    PATH, s -> "caught-up".equals(s.path("lag").path("verdict").asText()), Duration.ofSeconds(180));

            scratch.probe.connect.pauseConnector(SINK);
            long pausedAt = System.currentTimeMillis();
            JsonNode paused = scaler.http.awaitGet(
                    PATH, s -> s.path("observedAtMillis").asLong() >= pausedAt + PAUSE_MILLIS, Duration.ofSeconds(90));
            JsonNode lag = paused.path("lag");
            double age = lag.path("seconds").asDouble();
            assertTrue(
                    age >= 25 && age <= 40,
                    "paused " + (paused.path("observedAtMillis").asLong() - pausedAt) + " ms: " + lag);
            assertEquals("stalled", lag.path("verdict").asText(), lag.toString());
            assertTrue(!lag.path("lowerBound").asBoolean(), "the pause is inside the history: " + lag);
            JsonNode partition = lag.path("partitions").path(0);
            assertEquals(TOPIC, partition.path("topic").asText(), lag.toString());
            assertEquals(
                    lag.path("seconds").asDouble(), partition.path("seconds").asDouble(), 1e-9, lag.toString());

            // cross-checked against the record itself: the one at the committed offset was appended when the pause
            // began
            JsonNode ages = scaler.http.get(PATH + "/record-ages").body();
            JsonNode checked = ages.path("partitions").path(0);
            double recordSeconds = checked.path("recordSeconds").asDouble(-1);
            double interpolated = checked.path("interpolatedSeconds").asDouble(-1);
            assertEquals(0, checked.path("partition").asInt(), ages.toString());
            assertTrue(recordSeconds >= 25 && recordSeconds <= 45, "the record's own age: " + ages);
            // the interpolation is read a round earlier and between samples 2 s apart
            assertEquals(recordSeconds, interpolated, 6, "the scaler's age against the record's: " + ages);

            scratch.probe.connect.resumeConnector(SINK);
            List<String> seen = new ArrayList<>();
            Poll.until(SINK + " caught up after its resume", Duration.ofSeconds(180), Duration.ofMillis(500), () -> {
                JsonNode s = scaler.http.get(PATH).body();
                String verdict = s == null ? "?" : s.path("lag").path("verdict").asText("?");
                if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(verdict)) {
                    seen.add(verdict);
                }
                return "caught-up".equals(verdict) ? Optional.of(verdict) : Optional.empty();
            });
            assertTrue(seen.contains("catching-up"), "catching up before caught up: " + seen);
            assertTrue(seen.indexOf("catching-up") < seen.lastIndexOf("caught-up"), seen.toString());

            JsonNode history = scaler.http.get(PATH + "/history").body();
            double oldest = 0;
            for (JsonNode point : history.path("points")) {
                oldest = Math.max(oldest, point.path("lagSeconds").asDouble());
            }
            assertTrue(oldest >= 25, "the history holds the pause's age: " + oldest);
        }
    }
}
