package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StabilityCheckTest {

    private static final StabilityCheck CHECK = new StabilityCheck();
    private static final String TRACE =
            "org.apache.kafka.connect.errors.ConnectException: Tolerance exceeded in error handler\n"
                    + "\tat org.apache.kafka.connect.runtime.WorkerSinkTask.convertAndTransformRecord(WorkerSinkTask.java:1)\n"
                    + "Caused by: org.apache.kafka.connect.errors.DataException: Converting byte[] to Kafka Connect data failed\n"
                    + "\tat org.apache.kafka.connect.json.JsonConverter.toConnectData(JsonConverter.java:1)\n"
                    + "Caused by: org.apache.kafka.common.errors.SerializationException: Unrecognized token 'oops'\n";

    @Test
    void aSteadyPipelineIsOkWithItsFigures() {
        Finding f = new Fixture().run(CHECK);
        assertEquals(Severity.OK, f.severity(), f.title());
        assertEquals(3L, f.evidence().get("tasksRunning"));
        assertEquals(List.of(0, 1, 2), f.evidence().get("tasksAdvancing"));
        assertEquals(false, f.evidence().get("rebalancedInWindow"));
    }

    @Test
    void aFailedTaskIsCriticalWithItsTraceSummarized() {
        Fixture f = new Fixture();
        f.taskStates.put(1, "FAILED");
        f.taskTraces = Map.of(1, TRACE);
        Finding finding = f.run(CHECK);
        assertEquals(Severity.CRITICAL, finding.severity());
        assertEquals(List.of(1), finding.evidence().get("failedTasks"));
        assertEquals("task 1 FAILED: more tasks would not help", finding.title());
        assertTrue(
                finding.advice()
                        .contains(
                                "task 1: org.apache.kafka.connect.errors.ConnectException: Tolerance exceeded in "
                                        + "error handler ← org.apache.kafka.common.errors.SerializationException: Unrecognized token 'oops'"),
                finding.advice());
        assertTrue(
                finding.advice().contains("POST /connectors/sink/restart?includeTasks=true&onlyFailed=true"),
                finding.advice());
    }

    @Test
    void aWorkerThatDoesNotAnswerIsAWarningNamingItAndWhenConnectReassignsItsTasks() {
        Fixture f = new Fixture();
        f.taskWorkers.put(1, "10.0.0.7:8083");
        f.taskStates.put(1, PipelineSnapshot.Task.WORKER_UNREACHABLE);
        f.unreachableWorkers.put("10.0.0.7:8083", 12L);
        f.rebalanceDelay = Duration.ofSeconds(20);
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals("not steady: worker 10.0.0.7:8083 has not answered for 12 s (tasks [1] on it)", finding.title());
        assertEquals(Map.of("10.0.0.7:8083", 12L), finding.evidence().get("unreachableWorkers"));
        assertEquals(2L, finding.evidence().get("tasksRunning"), "Connect's RUNNING on a silent worker is not counted");
        assertEquals(20L, finding.evidence().get("rebalanceDelaySeconds"));
        assertTrue(
                finding.advice()
                        .startsWith(
                                "Connect gives their tasks to the live workers within about 18 s: the group notices"
                                        + " after its session timeout (Connect's default 10 s) and then waits scheduled.rebalance.max.delay.ms, assumed 20 s"),
                finding.advice());

        f.unreachableWorkers.put("10.0.0.7:8083", 45L);
        assertTrue(
                f.run(CHECK).advice().startsWith("Connect should have given their tasks to the live workers 15 s ago"),
                "past the delay the finding says the reassignment is overdue");
    }

    @Test
    void aFailedConnectorIsCriticalToo() {
        Fixture f = new Fixture();
        f.connectorState = "FAILED";
        assertEquals(
                "the connector FAILED: more tasks would not help", f.run(CHECK).title());
    }

    @Test
    void anUnsteadyPipelineIsAWarningWithTheReasons() {
        Fixture f = new Fixture();
        f.stable = false;
        f.reasons = List.of("the sink group rebalanced within the window (its partition assignment changed)");
        f.window = List.of(f.sample(0, Fixture.roundRobin(20, 2)), f.sample(10_000, f.assignment));
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals(true, finding.evidence().get("rebalancedInWindow"));
        assertEquals(f.reasons, finding.evidence().get("reasons"));
    }

    @Test
    void lagThatTheSinkDoesNotCommitIsAWarningEvenWhenTheSnapshotSeesNoStall() {
        Fixture f = new Fixture();
        f.lag = 5_166L;
        f.sinkPerSecond = 0.0;
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals(
                "not steady: the sink group committed nothing over the window while 5166 records wait",
                finding.title());
        f.sinkPerSecond = 0.1;
        assertEquals(Severity.OK, f.run(CHECK).severity());
        f.lag = 0L;
        f.sinkPerSecond = 0.0;
        assertEquals(Severity.OK, f.run(CHECK).severity(), "no lag, nothing to commit");
    }

    @Test
    void oneSampleIsWarmingUp() {
        Fixture f = new Fixture();
        f.stable = false;
        f.reasons = List.of("warming up: the window holds fewer than 2 samples of the sink group's offsets");
        f.window = List.of(f.sample(0, f.assignment));
        assertEquals(Severity.INFO, f.run(CHECK).severity());
    }

    @Test
    void summariesAreShort() {
        assertEquals("no trace reported", StabilityCheck.summary(null));
        assertEquals(
                "java.lang.IllegalStateException: boom",
                StabilityCheck.summary("java.lang.IllegalStateException: boom\n\tat x(Y.java:1)"));
        String longTrace = "java.lang.RuntimeException: " + "x".repeat(500);
        assertEquals(
                StabilityCheck.SUMMARY_CHARS, StabilityCheck.summary(longTrace).length());
        assertTrue(StabilityCheck.summary(longTrace).endsWith("…"));
    }
}
