package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkDelayProxy;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.ConnectorTimeline;
import io.kcscale.tests.fixtures.OwnStack;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scaler's readings on Connect's default commit interval, a minute, on a stack started as {@code up} starts it
 * (its workers' {@code offset.flush.interval.ms} left at the launcher's default) and observed by the stack's own
 * scaler with its defaults. Three pipelines run at once, each at 200 records/s over 20 partitions:
 *
 * <ul>
 *   <li>two sinks that keep up, of 1 and of 3 tasks, each under a dry-run policy with a 30 s age target: over 3
 *       minutes once each task has committed twice, at least 90% of their snapshots are stable, no partition is
 *       stalled, each sample's sink rate is within 20% of Elasticsearch's index rate, and no decision scales up;
 *   <li>a bulk sink that one task cannot keep up with (each request waits 1 s, as against a remote cluster that
 *       answers slowly), under the policy {@code maxTasks 6, targetLag 1500}: it is scaled to 3 tasks or more, each
 *       scale-up saying why, and the lag the policy reads falls below the target.
 * </ul>
 *
 * Then the 1-task sink is paused: it reads stalled within the commit interval plus the window, and its policy holds.
 *
 * <p>All three sinks are bulk ones of 100 records a request: on a loaded two-core machine one per-record task indexes
 * 150-215 records/s, no margin over 200; and at the template's 1,000 a request, which a batch reaches before 500 ms
 * pass without a record, Elasticsearch's count moves in steps of 1,000 every 5 s, so a 30 s window's index rate itself
 * swings by a sixth. A bulk task of 100 records a request, one request at a time, behind a 1 s wait writes 95 records/s
 * (measured on that machine), under half the load.
 */
@Order(21)
@ExtendWith(OwnStack.class)
class DefaultCommitIntervalTest {

    private static final int RATE = 200;
    private static final String STEADY_ONE = StackOptions.SINK_CONNECTOR;
    private static final String STEADY_THREE = "steady-three-sink";
    private static final String OVERLOADED = "overload-bulk-sink";
    private static final long TARGET_LAG = 1500;
    private static final Duration SAMPLE = Duration.ofSeconds(5);
    private static final Duration OBSERVED = Duration.ofMinutes(3);
    /** The scaler's default window. */
    private static final double WINDOW_SECONDS = 30;

    private static final Pattern SIZED = Pattern.compile("lag \\d+ above target 1500: [0-9.]+/s appended, [0-9.]+/s per"
            + " task, backlog drained in 60 s -> \\d+ tasks.*");

    @Test
    void readingsHoldBetweenCommitsAMinuteApartAndAnOverloadedSinkIsScaled() throws Exception {
        Path home = RepositoryFiles.home();
        StackOptions options = StackOptions.builder(home)
                .dataDir(home.resolve("tests/target/e2e-default-commits"))
                .freePorts()
                .fresh(true)
                .partitions(20)
                .ratePerSecond(RATE)
                .sinkMode(SinkMode.BULK)
                .build();
        assertEquals(60_000, options.commitIntervalMs(), "up's default is Connect's own");
        try (LocalStack stack = LocalStack.start(options, m -> System.out.println("[default commits stack] " + m));
                ScratchPipeline scratch = new ScratchPipeline(stack);
                SinkDelayProxy remote = SinkDelayProxy.start(
                        stack.endpoints().elasticsearchUrl(), Duration.ofSeconds(1), Duration.ZERO, 0)) {
            Properties worker = new Properties();
            try (Reader in =
                    Files.newBufferedReader(stack.endpoints().dataDir().resolve("config/connect-0.properties"))) {
                worker.load(in);
            }
            assertEquals(
                    "60000", worker.getProperty("offset.flush.interval.ms"), "the worker as the launcher wrote it");

            String es = stack.endpoints().elasticsearchUrl().getHost() + ":"
                    + stack.endpoints().elasticsearchUrl().getPort();
            scratch.probe.updateConnector(STEADY_ONE, Map.of("camel.aggregation.size", "100"));
            scratch.topic("steady-three", 20);
            scratch.index("steady-three", 1);
            scratch.source("steady-three-source", "steady-three", "price", RATE, Map.of());
            Map<String, String> three = scratch.sinkConfig(SinkMode.BULK, "steady-three", "steady-three", 3, es);
            three.put("camel.aggregation.size", "100");
            scratch.connector(STEADY_THREE, three);
            scratch.topic("overload-bulk", 20);
            scratch.index("overload-bulk", 1);
            Map<String, String> overloaded =
                    scratch.sinkConfig(SinkMode.BULK, "overload-bulk", "overload-bulk", 1, remote.hostPort());
            overloaded.put("camel.aggregation.size", "100");
            overloaded.put("kcscale.bulk.max.in.flight.requests", "1");
            scratch.connector(OVERLOADED, overloaded);
            scratch.awaitRunning(STEADY_THREE, 3);
            scratch.awaitRunning(OVERLOADED, 1);

            ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
            for (String sink : List.of(STEADY_ONE, STEADY_THREE, OVERLOADED)) {
                scaler.awaitGet("/api/v1/connectors/" + sink, s -> s.has("lag"), Duration.ofSeconds(90));
            }
            for (String sink : List.of(STEADY_ONE, STEADY_THREE)) {
                put(scaler, sink, "{\"maxTasks\":6,\"targetLagSeconds\":30,\"dryRun\":true}");
            }
            put(scaler, OVERLOADED, "{\"maxTasks\":6,\"targetLag\":" + TARGET_LAG + "}");
            scratch.source("overload-bulk-source", "overload-bulk", "price", RATE, Map.of());
            long start = System.currentTimeMillis();
            ConnectorTimeline one = new ConnectorTimeline(scaler, STEADY_ONE, "60 s commits, 1 task", start);
            ConnectorTimeline threeTasks = new ConnectorTimeline(scaler, STEADY_THREE, "60 s commits, 3 tasks", start);
            ConnectorTimeline overload =
                    new ConnectorTimeline(scaler, OVERLOADED, "60 s commits, overload bulk", start);
            List<ConnectorTimeline> all = List.of(one, threeTasks, overload);

            // each task of the steady sinks has committed twice: the scaler knows its interval and its rates
            long observedFrom = Poll.until("every steady task's commit interval", Duration.ofMinutes(5), SAMPLE, () -> {
                all.forEach(ConnectorTimeline::sample);
                return everyTaskHasAnInterval(one) && everyTaskHasAnInterval(threeTasks)
                        ? Optional.of(System.currentTimeMillis())
                        : Optional.empty();
            });
            Poll.until("3 minutes of samples", OBSERVED.plusMinutes(2), SAMPLE, () -> {
                all.forEach(ConnectorTimeline::sample);
                return System.currentTimeMillis() - observedFrom >= OBSERVED.toMillis()
                        ? Optional.of(true)
                        : Optional.empty();
            });
            long observedTo = System.currentTimeMillis();
            List<String> problems = new ArrayList<>();
            problems.addAll(steady(one, observedFrom, observedTo));
            problems.addAll(steady(threeTasks, observedFrom, observedTo));

            ConnectorTimeline.Point below =
                    Poll.until("the overloaded sink's lag below " + TARGET_LAG, Duration.ofMinutes(6), SAMPLE, () -> {
                        all.forEach(ConnectorTimeline::sample);
                        ConnectorTimeline.Point p =
                                overload.points().get(overload.points().size() - 1);
                        return p.tasksMax() >= 3 && p.lag().path("unconsumed").asLong(Long.MAX_VALUE) < TARGET_LAG
                                ? Optional.of(p)
                                : Optional.empty();
                    });
            System.out.printf(
                    Locale.ROOT,
                    "[60 s commits, overload bulk] tasks.max %d, unconsumed lag %d below target at +%.0f s%n",
                    below.tasksMax(),
                    below.lag().path("unconsumed").asLong(),
                    overload.secondsIn(below.atMillis()));
            problems.addAll(scaledWhenOverloaded(overload));

            // paused: Connect says so, and the scaler reads it at once, well within an interval and a window
            scratch.probe.connect.pauseConnector(STEADY_ONE);
            long pausedAt = System.currentTimeMillis();
            ConnectorTimeline.Point stalled = Poll.until(
                    "the paused sink stalled",
                    Duration.ofSeconds(150),
                    Duration.ofSeconds(2),
                    () -> Optional.of(one.sample())
                            .filter(p ->
                                    "stalled".equals(p.lag().path("verdict").asText())));
            double after = (stalled.atMillis() - pausedAt) / 1000.0;
            System.out.printf(Locale.ROOT, "[60 s commits, 1 task] stalled %.1f s after the pause%n", after);
            if (after > 60 + WINDOW_SECONDS) {
                problems.add("the paused sink read stalled " + after + " s after the pause");
            }
            JsonNode held = Poll.until("the paused sink's policy holding", Duration.ofSeconds(30), SAMPLE, () -> {
                JsonNode newest = scaler.get("/api/v1/connectors/" + STEADY_ONE + "/autoscale")
                        .body()
                        .path("decisions")
                        .path(0);
                return newest.path("decision").path("atMillis").asLong() >= pausedAt
                                && "HOLD"
                                        .equals(newest.path("decision")
                                                .path("action")
                                                .asText())
                                && "unstable"
                                        .equals(newest.path("decision")
                                                .path("code")
                                                .asText())
                        ? Optional.of(newest)
                        : Optional.empty();
            });
            assertTrue(held.path("decision").path("reason").asText().contains("PAUSED"), held.toString());
            assertEquals(List.of(), problems);
        }
    }

    private static void put(ScalerHttp scaler, String sink, String policy) {
        ScalerHttp.Answer a = scaler.put("/api/v1/connectors/" + sink + "/autoscale", policy);
        assertEquals(200, a.status(), a.raw());
    }

    private static boolean everyTaskHasAnInterval(ConnectorTimeline timeline) {
        JsonNode tasks =
                timeline.points().get(timeline.points().size() - 1).snapshot().path("tasks");
        if (tasks.isEmpty()) {
            return false;
        }
        for (JsonNode t : tasks) {
            if (!t.path("commitIntervalSeconds").isNumber()) {
                return false;
            }
        }
        return true;
    }

    /**
     * What a sink that keeps up must show from {@code from} to {@code to}: most snapshots stable, none stalled, each
     * sample's sink rate near Elasticsearch's; and over the whole run no scale-up. Prints its figures.
     */
    private static List<String> steady(ConnectorTimeline timeline, long from, long to) {
        List<String> problems = new ArrayList<>();
        List<ConnectorTimeline.Point> observed = timeline.points().stream()
                .filter(p -> p.atMillis() >= from && p.atMillis() <= to)
                .toList();
        String name = timeline.label();
        int stable = 0;
        double worst = 0;
        Map<String, Integer> verdicts = new TreeMap<>();
        for (ConnectorTimeline.Point p : observed) {
            String at = name + " at +" + Math.round(timeline.secondsIn(p.atMillis())) + " s: ";
            stable += p.stable() ? 1 : 0;
            verdicts.merge(p.lag().path("verdict").asText("unknown"), 1, Integer::sum);
            if (!p.partitions("stalled").isEmpty()) {
                problems.add(at + "partitions " + p.partitions("stalled") + " stalled");
            }
            JsonNode sink = p.rates().path("sinkPerSecond");
            JsonNode index = p.rates().path("indexPerSecond");
            if (!sink.isNumber() || !index.isNumber() || index.asDouble() <= 0) {
                problems.add(at + "rates unknown: " + p.rates());
                continue;
            }
            double off = Math.abs(sink.asDouble() - index.asDouble()) / index.asDouble();
            worst = Math.max(worst, off);
            if (off > 0.2) {
                problems.add(at + "sink " + sink + "/s against index " + index + "/s");
            }
        }
        System.out.printf(
                Locale.ROOT,
                "[%s] %d samples over %.0f s: %d stable (%.0f%%), verdicts %s, max |sink - index| / index %.1f%%%n",
                name,
                observed.size(),
                (to - from) / 1000.0,
                stable,
                100.0 * stable / Math.max(1, observed.size()),
                verdicts,
                worst * 100);
        if (observed.size() < 30) {
            problems.add(name + ": " + observed.size() + " samples in 3 minutes");
        }
        if (stable < 0.9 * observed.size()) {
            problems.add(name + ": " + stable + " of " + observed.size() + " samples stable");
        }
        timeline.decisions().stream()
                .filter(r -> r.path("decision").path("action").asText().equals("SCALE_UP"))
                .forEach(r -> problems.add(name + ": a scale-up on the commit saw-tooth: " + r));
        return problems;
    }

    /** The overloaded sink: scaled to 3 tasks or more, each step saying why, never held for a stall. */
    private static List<String> scaledWhenOverloaded(ConnectorTimeline timeline) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> scaleUps = timeline.decisions().stream()
                .filter(r -> "SCALE_UP".equals(r.path("decision").path("action").asText()))
                .toList();
        if (scaleUps.isEmpty()
                || scaleUps.get(scaleUps.size() - 1)
                                .path("decision")
                                .path("toTasks")
                                .asInt()
                        < 3) {
            problems.add("the overloaded sink's scale-ups: " + scaleUps);
        }
        for (JsonNode r : scaleUps) {
            JsonNode d = r.path("decision");
            if (!"lag".equals(d.path("code").asText())
                    || !SIZED.matcher(d.path("reason").asText()).matches()
                    || !r.path("outcome").asText().startsWith("applied")) {
                problems.add("a scale-up that does not say why, or was not applied: " + r);
            }
        }
        for (JsonNode r : timeline.decisions()) {
            JsonNode d = r.path("decision");
            if ("unstable".equals(d.path("code").asText())
                    && d.path("reason").asText().contains("partitions [")) {
                problems.add("the overloaded sink held for a stall: " + r);
            }
        }
        for (ConnectorTimeline.Point p : timeline.points()) {
            if (!p.partitions("stalled").isEmpty()) {
                problems.add("the overloaded sink at +" + Math.round(timeline.secondsIn(p.atMillis()))
                        + " s: partitions " + p.partitions("stalled") + " stalled");
            }
        }
        return problems;
    }
}
