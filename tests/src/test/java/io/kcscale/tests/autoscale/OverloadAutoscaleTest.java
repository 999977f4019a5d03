package io.kcscale.tests.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkDelayProxy;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.ConnectorTimeline;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An overloaded sink is scaled and a stuck one is held, on the real stack with the scaler's defaults (a sample every
 * 2 s, a 30 s window). The remote-cluster regime: a per-record sink whose every request waits 14 ms (one task writes
 * at most 1000 / 14 = 71 records/s), 200 records/s over 20 partitions, the policy {@code maxTasks 6, targetLag 1500}.
 * A task that is behind drains a few partitions per poll, so most of its partitions do not move between two of its
 * commits: that must read growing, not stalled; the autoscaler must scale the sink to 3 tasks or more, saying why;
 * Elasticsearch must then index more than two tasks could; and the lag must fall below the target.
 *
 * <p>The load lasts a minute (12,000 records), past the first scale-up (36-41 s in on the loaded two-core machine),
 * and then ends: there six such tasks wrote 210-240 records/s in all, its CPU and not the tasks being the limit, so
 * under 200 records/s without end a backlog of 20,000 fell by 10-30 records/s. Its index then refuses every write while records arrive: the scaler must name the index's write
 * block at once and read the sink stalled within the window plus one commit interval, its tasks RUNNING, and the
 * autoscaler hold though the lag is over its target and the policy is raised to allow more tasks. The shared stack commits every second; DefaultCommitIntervalTest runs a bulk sink's
 * overload and a paused sink at Connect's default minute.
 */
@Order(9)
@ExtendWith(SharedStack.class)
class OverloadAutoscaleTest {

    private static final String TOPIC = "overload";
    private static final String INDEX = "overload";
    private static final String SINK = "overload-sink";
    private static final String AUTOSCALE = "/api/v1/connectors/" + SINK + "/autoscale";
    private static final int RATE = 200;
    private static final long TARGET_LAG = 1500;
    private static final Duration SAMPLE = Duration.ofSeconds(5);
    /** The scaler's default window. */
    private static final double WINDOW_SECONDS = 30;
    /** What one per-record task can write behind the 14 ms wait, whatever the machine. */
    private static final double ONE_TASK_AT_MOST = 1000.0 / 14;

    /** A scale-up's reason: what was over the target, and the sizing that chose the tasks. */
    private static final Pattern SIZED = Pattern.compile("lag \\d+ above target 1500: [0-9.]+/s appended, [0-9.]+/s per"
            + " task, backlog drained in 60 s -> \\d+ tasks.*");

    @Test
    void anOverloadedPerRecordSinkIsScaledUntilItsLagFallsAndAStuckOneIsHeld(LocalStack stack) throws Exception {
        try (SinkDelayProxy remote = SinkDelayProxy.start(
                        stack.endpoints().elasticsearchUrl(), Duration.ofMillis(14), Duration.ZERO, 0);
                ScratchPipeline scratch = new ScratchPipeline(stack);
                InProcessScaler scaler = InProcessScaler.start(stack, Map.of())) {
            scratch.topic(TOPIC, 20);
            scratch.index(INDEX, 1);
            Map<String, String> sink = scratch.sinkConfig(SinkMode.INDEX, TOPIC, INDEX, 1, remote.hostPort());
            // refused for now, sent again: the stuck phase must not end in a FAILED task
            sink.put("kcscale.retry.max.attempts", "1000");
            scratch.connector(SINK, sink);
            scratch.awaitRunning(SINK, 1);
            scaler.http.awaitGet("/api/v1/connectors/" + SINK, s -> s.has("lag"), Duration.ofSeconds(60));
            ScalerHttp.Answer policy = scaler.http.put(AUTOSCALE, "{\"maxTasks\":6,\"targetLag\":" + TARGET_LAG + "}");
            assertEquals(200, policy.status(), policy.raw());
            // the load arrives on a sink the scaler already watches, as an overload does
            scratch.source("overload-source", TOPIC, "price", RATE, Map.of("iterations", String.valueOf(RATE * 60)));
            ConnectorTimeline timeline =
                    new ConnectorTimeline(scaler.http, SINK, "overload per-record", System.currentTimeMillis());

            ConnectorTimeline.Point enough = Poll.until(
                    "tasks.max 3 or more",
                    Duration.ofMinutes(5),
                    SAMPLE,
                    () -> Optional.of(timeline.sample()).filter(p -> p.tasksMax() >= 3));
            ConnectorTimeline.Point below = Poll.until(
                    "the lag below " + TARGET_LAG + " after the scale-up",
                    Duration.ofMinutes(7),
                    SAMPLE,
                    () -> Optional.of(timeline.sample())
                            .filter(p -> p.lag().path("total").asLong(Long.MAX_VALUE) < TARGET_LAG
                                    && p.lag().path("unconsumed").asLong(Long.MAX_VALUE) < TARGET_LAG));
            System.out.printf(
                    "[overload per-record] tasks.max %d at +%.0f s, lag below target at +%.0f s%n",
                    enough.tasksMax(), timeline.secondsIn(enough.atMillis()), timeline.secondsIn(below.atMillis()));

            List<String> stalled = new ArrayList<>();
            for (ConnectorTimeline.Point p : timeline.points()) {
                if (!p.partitions("stalled").isEmpty()) {
                    stalled.add("+" + Math.round(timeline.secondsIn(p.atMillis())) + " s: " + p.partitions("stalled"));
                }
            }
            assertEquals(List.of(), stalled, "a saturated task that drains its partitions in turns is not stalled");
            List<JsonNode> decisions = timeline.decisions();
            List<JsonNode> scaleUps = decisions.stream()
                    .filter(r ->
                            "SCALE_UP".equals(r.path("decision").path("action").asText()))
                    .toList();
            assertTrue(!scaleUps.isEmpty(), "decisions: " + decisions);
            for (JsonNode r : scaleUps) {
                JsonNode d = r.path("decision");
                assertEquals("lag", d.path("code").asText(), r.toString());
                assertTrue(SIZED.matcher(d.path("reason").asText()).matches(), r.toString());
                assertTrue(d.path("toTasks").asInt() <= 6, r.toString());
                assertTrue(r.path("outcome").asText().startsWith("applied"), r.toString());
            }
            assertTrue(
                    scaleUps.get(scaleUps.size() - 1)
                                    .path("decision")
                                    .path("toTasks")
                                    .asInt()
                            >= 3,
                    scaleUps.toString());
            long scaledAt = scaleUps.get(0).path("decision").path("atMillis").asLong();
            double fastest = timeline.points().stream()
                    .filter(p -> p.atMillis() > scaledAt)
                    .mapToDouble(p -> p.rates().path("indexPerSecond").asDouble(0))
                    .max()
                    .orElse(0);
            System.out.printf("[overload per-record] Elasticsearch indexed up to %.1f/s after the scale-up%n", fastest);
            assertTrue(
                    fastest > 2 * ONE_TASK_AT_MOST,
                    "after the scale-up Elasticsearch indexed more than two tasks could: " + fastest + "/s");
            for (JsonNode r : decisions) {
                JsonNode d = r.path("decision");
                // every reason a snapshot gives for a stall names its partitions; no other reason does
                assertTrue(
                        !("unstable".equals(d.path("code").asText())
                                && d.path("reason").asText().contains("partitions [")),
                        "held for a stall: " + r);
            }

            // stuck: every write refused while records arrive, the tasks RUNNING and retrying, nothing committed.
            // The stall reads within the window plus one of the tasks' commit intervals only for tasks that have
            // one: a task that has not committed twice since a rebalance is given Connect's default minute. So the
            // policy is held at the tasks the sink has (a round may still have scaled it as the drain ended: one did,
            // 5 -> 6, 5 s before the block) until each has committed twice; the raise below shows the hold.
            int tasksNow = timeline.sample().tasksMax();
            ScalerHttp.Answer capped =
                    scaler.http.put(AUTOSCALE, "{\"maxTasks\":" + tasksNow + ",\"targetLag\":" + TARGET_LAG + "}");
            assertEquals(200, capped.status(), capped.raw());
            double interval = Poll.until("every task's commit interval", Duration.ofSeconds(90), SAMPLE, () -> {
                JsonNode tasks = timeline.sample().snapshot().path("tasks");
                double longest = 0;
                for (JsonNode t : tasks) {
                    if (!t.path("commitIntervalSeconds").isNumber()) {
                        return Optional.empty();
                    }
                    longest = Math.max(longest, t.path("commitIntervalSeconds").asDouble());
                }
                return tasks.size() == tasksNow ? Optional.of(longest) : Optional.empty();
            });
            // the block is read at the next sample, long before the stall can be
            scratch.blockWrites(INDEX);
            long blockedAt = System.currentTimeMillis();
            JsonNode blockRead = Poll.until(
                    "the index's write block read",
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(1),
                    () -> Optional.of(scaler.http
                                    .get("/api/v1/connectors/" + SINK)
                                    .body())
                            .filter(s -> "index.blocks.write"
                                    .equals(s.path("elasticsearch")
                                            .path("indexes")
                                            .path(0)
                                            .path("writeBlock")
                                            .asText())));
            assertTrue(blockRead.path("reasons").toString().contains("refuses writes"), blockRead.toString());
            scratch.source("overload-trickle", TOPIC, "price", 100, Map.of());
            ConnectorTimeline.Point stuck = Poll.until(
                    "the stuck sink stalled",
                    Duration.ofMinutes(3),
                    SAMPLE,
                    () -> Optional.of(timeline.sample())
                            .filter(p ->
                                    "stalled".equals(p.lag().path("verdict").asText())));
            double stalledAfter = (stuck.atMillis() - blockedAt) / 1000.0;
            System.out.printf(
                    "[overload per-record] stalled %.0f s after its index refused writes (commit interval up to %.1f s)%n",
                    stalledAfter, interval);
            assertTrue(
                    stalledAfter <= WINDOW_SECONDS + interval + 2 * SAMPLE.toSeconds() + 10,
                    "within the window plus one commit interval of its last commit: " + stalledAfter + " s");
            assertTrue(
                    stuck.snapshot().path("reasons").toString().contains("committed nothing"),
                    stuck.snapshot().path("reasons").toString());
            for (JsonNode t : stuck.snapshot().path("tasks")) {
                assertEquals("RUNNING", t.path("state").asText(), "stuck, not failed: " + t);
            }

            // the policy now allows more tasks and the lag is over its target: the autoscaler still holds
            ScalerHttp.Answer raise = scaler.http.put(AUTOSCALE, "{\"maxTasks\":10,\"targetLag\":" + TARGET_LAG + "}");
            assertEquals(200, raise.status(), raise.raw());
            long raised = System.currentTimeMillis();
            int tasksBefore = stuck.tasksMax();
            Poll.until("20 s under the raised policy", Duration.ofMinutes(2), SAMPLE, () -> {
                ConnectorTimeline.Point p = timeline.sample();
                assertEquals(tasksBefore, p.tasksMax(), "a stuck sink was scaled");
                return p.atMillis() - raised >= 20_000 ? Optional.of(p) : Optional.empty();
            });
            JsonNode latest =
                    scaler.http.get(AUTOSCALE).body().path("decisions").path(0);
            assertEquals("HOLD", latest.path("decision").path("action").asText(), latest.toString());
            assertEquals("unstable", latest.path("decision").path("code").asText(), latest.toString());
            assertTrue(
                    latest.path("decision").path("inputs").path("lag").asLong() > TARGET_LAG,
                    "held with the lag over its target: " + latest);
            assertTrue(
                    latest.path("decision").path("reason").asText().contains("committed nothing"), latest.toString());
            assertTrue(latest.path("decision").path("reason").asText().contains("refuses writes"), latest.toString());
            assertEquals(
                    List.of(),
                    timeline.decisions().stream()
                            .filter(r -> r.path("decision").path("atMillis").asLong() >= blockedAt
                                    && r.path("decision")
                                            .path("action")
                                            .asText()
                                            .startsWith("SCALE"))
                            .toList(),
                    "no scale after the sink got stuck");
        }
    }
}
