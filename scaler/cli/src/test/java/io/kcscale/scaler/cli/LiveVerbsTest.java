package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code status}, {@code scale}, {@code autoscale} and {@code decisions} against a stand-in scaler: paths, output, failures. */
class LiveVerbsTest {

    private final StandInScaler scaler = new StandInScaler();

    @AfterEach
    void stop() {
        scaler.close();
    }

    private CliRun run(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--scaler-url";
        all[args.length + 1] = scaler.url();
        return CliRun.of(all);
    }

    @Test
    void eachVerbAsksForItsConnectorWithTheNamePercentEncoded() {
        scaler.answer(200, Map.of("name", "my sink", "tasks", List.of(), "decisions", List.of(), "policy", Map.of()));
        run("status", "my sink");
        assertEquals("GET /api/v1/connectors/my%20sink", scaler.lastRequest());
        run("decisions", "a/b+c");
        assertEquals("GET /api/v1/connectors/a%2Fb%2Bc/autoscale", scaler.lastRequest());
        run("scale", "my sink", "--tasks", "3");
        assertEquals("POST /api/v1/connectors/my%20sink/scale", scaler.lastRequest());
        run("autoscale", "my sink", "--max-tasks", "6", "--target-latency", "5s");
        assertEquals("PUT /api/v1/connectors/my%20sink/autoscale", scaler.lastRequest());
        run("autoscale", "my sink", "--stop");
        assertEquals("DELETE /api/v1/connectors/my%20sink/autoscale", scaler.lastRequest());
    }

    @Test
    void statusShowsEachTasksWorkerAndATaskOnASilentWorkerAsSuch() {
        scaler.answer(
                200,
                Map.of(
                        "name",
                        "s",
                        "topics",
                        List.of("t"),
                        "tasksMax",
                        2,
                        "partitions",
                        4,
                        "stable",
                        false,
                        "tasks",
                        List.of(
                                Map.of(
                                        "id",
                                        0,
                                        "state",
                                        "RUNNING",
                                        "workerId",
                                        "10.0.0.1:8083",
                                        "partitions",
                                        List.of(0, 1)),
                                Map.of(
                                        "id",
                                        1,
                                        "state",
                                        "WORKER_UNREACHABLE",
                                        "workerId",
                                        "10.0.0.2:8083",
                                        "partitions",
                                        List.of(2, 3))),
                        "reasons",
                        List.of("worker 10.0.0.2:8083 has not answered for 6 s")));
        CliRun run = run("status", "s");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("tasks 1/2 RUNNING"), run.out());
        assertTrue(run.out().contains("1     WORKER_UNREACHABLE 10.0.0.2:8083"), run.out());
        assertTrue(run.out().contains("0     RUNNING            10.0.0.1:8083"), run.out());
        assertTrue(run.out().contains("not stable: worker 10.0.0.2:8083 has not answered for 6 s"), run.out());
    }

    @Test
    void statusShowsWhatTheSinkDeadLettersAndWhy() {
        scaler.answer(
                200,
                Map.of(
                        "name",
                        "s",
                        "topics",
                        List.of("t"),
                        "tasksMax",
                        1,
                        "partitions",
                        1,
                        "stable",
                        false,
                        "tasks",
                        List.of(),
                        "deadLetters",
                        Map.of(
                                "topic",
                                "t-dlq",
                                "appendPerSecond",
                                0.25,
                                "total",
                                31,
                                "latestReason",
                                "DataException: not a JSON object")));
        CliRun run = run("status", "s");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .contains("dead letters/s 0.25 to t-dlq (31 in all)  latest: DataException: not a JSON object"),
                run.out());
        scaler.answer(200, Map.of("name", "s", "tasks", List.of()));
        assertFalse(run("status", "s").out().contains("dead letters"), "a sink without a dead-letter topic");
    }

    @Test
    void jsonPrintsTheAnswerAsTheApiGaveIt() {
        scaler.answer(200, Map.of("decisions", List.of(), "evaluationIntervalMillis", 10000));
        CliRun json = run("decisions", "s", "--json");
        assertEquals(0, json.exitCode(), json.err());
        assertTrue(json.out().contains("\"evaluationIntervalMillis\" : 10000"), json.out());
        CliRun text = run("decisions", "s");
        assertEquals(
                "no decisions yet (the autoscaler evaluates every 10 s)",
                text.out().strip());
    }

    @Test
    void decisionsShowTheTasksWhereTheyAreKnown() {
        scaler.answer(
                200,
                Map.of(
                        "decisions",
                        List.of(
                                Map.of(
                                        "decision",
                                        Map.of(
                                                "atMillis",
                                                2_000,
                                                "action",
                                                "SCALE_UP",
                                                "fromTasks",
                                                2,
                                                "toTasks",
                                                4,
                                                "code",
                                                "lag",
                                                "reason",
                                                "lag 120000 above target 50000",
                                                "inputs",
                                                Map.of("lag", 120_000)),
                                        "outcome",
                                        "applied: 4 tasks RUNNING"),
                                Map.of(
                                        "decision",
                                        Map.of(
                                                "atMillis",
                                                1_000,
                                                "action",
                                                "HOLD",
                                                "code",
                                                "unobserved",
                                                "reason",
                                                "s is not observed (yet)",
                                                "inputs",
                                                Map.of()),
                                        "outcome",
                                        "none"))));
        List<String> lines = run("decisions", "s").out().lines().toList();
        assertTrue(
                lines.get(0).endsWith("SCALE_UP   2 -> 4  lag 120000 above target 50000  [applied: 4 tasks RUNNING]"),
                lines.get(0));
        assertTrue(lines.get(1).endsWith("HOLD       -  s is not observed (yet)  [none]"), lines.get(1));
    }

    @Test
    void aRefusalIsOneLineWithItsStatusAndExitOne() {
        scaler.answer(422, Map.of("error", "adding tasks would not help: 2 distinct keys"));
        CliRun run = run("scale", "s", "--tasks", "3");
        assertEquals(1, run.exitCode());
        assertEquals(
                "kcscale scale: refused (422): adding tasks would not help: 2 distinct keys",
                run.err().strip());
        assertEquals("", run.out());
    }

    @Test
    void anUnknownConnectorIsSaidPlainly() {
        scaler.answer(404, Map.of("error", "no connector named stocks es sink"));
        CliRun run = run("status", "stocks es sink");
        assertEquals(1, run.exitCode());
        assertEquals(
                "kcscale status: no connector named stocks es sink", run.err().strip());
    }

    @Test
    void badFlagsAreRefusedBeforeAnyRequest() {
        CliRun tasks = run("scale", "s", "--tasks", "three");
        assertEquals(2, tasks.exitCode());
        assertEquals(
                "kcscale scale: --tasks must be a whole number, got three",
                tasks.err().strip());
        CliRun target = run("autoscale", "s", "--max-tasks", "4");
        assertEquals(2, target.exitCode());
        assertEquals(
                "kcscale autoscale: give --target-latency, --target-lag or --target-lag-seconds",
                target.err().strip());
        CliRun both = run("autoscale", "s", "--max-tasks", "4", "--target-latency", "5s", "--target-lag", "100");
        assertEquals(2, both.exitCode());
        assertEquals(
                "kcscale autoscale: give at most one of --target-latency and --target-lag",
                both.err().strip());
        assertNull(scaler.lastRequest(), "nothing was sent");
    }

    @Test
    void predictTasksForAConnectorAsksTheScalerAndPrintsTheRangeAndTheLimits() {
        Map<String, Object> capacity = Map.of("estimate", 28.6, "low", 27.9, "high", 29.4);
        scaler.answer(
                200,
                Map.ofEntries(
                        Map.entry("targetRate", 300),
                        Map.entry("perTaskRate", 28.6),
                        Map.entry("utilization", 0.8),
                        Map.entry("model", "linear"),
                        Map.entry("minimumTasks", 11),
                        Map.entry("recommendedTasks", 14),
                        Map.entry("partitions", 14),
                        Map.entry("assumptions", List.of("one task can do 28.6 records/s, measured live on s")),
                        Map.entry("advice", List.of("limited by tasks: each task can do 28.6 records/s")),
                        Map.entry(
                                "live",
                                Map.ofEntries(
                                        Map.entry("connector", "s"),
                                        Map.entry("tasksRunning", 1),
                                        Map.entry("busyFraction", 0.73),
                                        Map.entry("perTaskCapacity", capacity),
                                        Map.entry("samples", 15),
                                        Map.entry("windowSeconds", 30.0),
                                        Map.entry("level", 0.9),
                                        Map.entry(
                                                "sustainedRate",
                                                Map.of("estimate", 400.4, "low", 390.6, "high", 411.6)),
                                        Map.entry("recommendedTasks", Map.of("estimate", 14, "low", 14, "high", 15)),
                                        Map.entry("limitedBy", "tasks"),
                                        Map.entry(
                                                "limits",
                                                List.of(Map.of(
                                                        "factor",
                                                        "tasks",
                                                        "binding",
                                                        true,
                                                        "detail",
                                                        "each task can do 28.6 records/s")))))));
        CliRun run = run("predict", "tasks", "--connector", "s", "--target-rate", "300");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("POST /api/v1/predict/tasks", scaler.lastRequest());
        assertTrue(
                run.out()
                        .startsWith("Tasks for 300 records/s (linear scaling at s's live capacity, 28.6 records/s"
                                + " for one task)"),
                run.out());
        assertTrue(
                run.out()
                        .matches("(?s).*per-task capacity +28\\.6 records/s +27\\.9 to 29\\.4 records/s: the central"
                                + " 90% of 15 readings over 30 s; 1 task\\(s\\) running, 73% busy.*"),
                run.out());
        assertTrue(run.out().matches("(?s).*tasks interval +14 to 15 +over the capacity's range.*"), run.out());
        assertTrue(run.out().matches("(?s).*limited by +tasks +see Limits.*"), run.out());
        assertTrue(run.out().contains("tasks (binding): each task can do 28.6 records/s"), run.out());
    }

    @Test
    void predictTasksForAConnectorWhoseCapacityIsUnknownIsTheScalersOneLine() {
        scaler.answer(
                422,
                Map.of(
                        "error",
                        "s's per-task capacity is unknown: the workers' metrics are not read",
                        "field",
                        "connector"));
        CliRun run = run("predict", "tasks", "--connector", "s", "--target-rate", "300");
        assertEquals(1, run.exitCode());
        assertEquals(
                "kcscale predict tasks: s's per-task capacity is unknown: the workers' metrics are not read",
                run.err().strip());
        CliRun both = run("predict", "tasks", "--connector", "s", "--target-rate", "300", "--per-task-rate", "70");
        assertEquals(2, both.exitCode());
        assertTrue(
                both.err().startsWith("kcscale predict tasks: --connector cannot be combined with --per-task-rate"),
                both.err());
        CliRun zero = run("predict", "tasks", "--connector", "s", "--target-rate", "0");
        assertEquals(2, zero.exitCode());
        assertTrue(zero.err().startsWith("kcscale predict tasks: --target-rate must be"), zero.err());
    }
}
