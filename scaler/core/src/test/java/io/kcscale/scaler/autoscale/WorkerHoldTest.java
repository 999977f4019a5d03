package io.kcscale.scaler.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The autoscaler holds, before any policy, while a worker of the connector is silent or a task waits unassigned. */
class WorkerHoldTest {

    private static final Duration DELAY = Duration.ofSeconds(20);

    private static PipelineSnapshot snapshot(Map<String, Long> unreachableWorkers, String... states) {
        List<PipelineSnapshot.Task> tasks = new java.util.ArrayList<>();
        for (int i = 0; i < states.length; i++) {
            tasks.add(PipelineSnapshot.Task.of(
                    i, states[i], "w" + i + ":8083", Map.of("t", List.of(i)), 10.0, false, null, null));
        }
        return new PipelineSnapshot(
                "sink",
                List.of("t"),
                states.length,
                20,
                Map.of("t", 20),
                "range",
                tasks,
                new PipelineSnapshot.Lag(0L, Map.of(), Map.of("t", Map.of()), null, null, null, List.of(), 0L, null),
                new PipelineSnapshot.Rates(10.0, 10.0, 10.0, Map.of(), Map.of("t", Map.of())),
                0.0,
                unreachableWorkers.isEmpty(),
                List.of(),
                new PipelineSnapshot.Elasticsearch("i", 1, 0, 1, 0.0, 0),
                null,
                false,
                List.of(),
                unreachableWorkers,
                null,
                30,
                0);
    }

    @Test
    void aSilentWorkerHoldsNamingItAndTheReassignmentDelay() {
        Decision d = AutoscaleEvaluator.workerHold(
                        snapshot(Map.of("w1:8083", 5L), "RUNNING", PipelineSnapshot.Task.WORKER_UNREACHABLE, "RUNNING"),
                        DELAY,
                        1_000)
                .orElseThrow();
        assertEquals(Decision.Action.HOLD, d.action());
        assertEquals(3, d.fromTasks());
        assertEquals(3, d.toTasks(), "a hold keeps the count");
        assertEquals("worker-unreachable", d.code());
        assertTrue(
                d.reason()
                        .startsWith(
                                "worker w1:8083 has not answered for 5 s (tasks [1] on it): no scale until Connect"
                                        + " gives its tasks to the live workers; Connect gives their tasks to the live workers within about 25 s"),
                d.reason());
        assertEquals(Map.of("w1:8083", 5L), d.inputs().unreachableWorkers());
    }

    @Test
    void anUnassignedTaskHoldsToo() {
        Decision d = AutoscaleEvaluator.workerHold(snapshot(Map.of(), "RUNNING", "UNASSIGNED"), DELAY, 1_000)
                .orElseThrow();
        assertEquals("tasks-unassigned", d.code());
        assertTrue(d.reason().startsWith("tasks [1] are UNASSIGNED: no scale until Connect assigns them"), d.reason());
    }

    @Test
    void everyTaskRunningOnAnsweringWorkersLeavesItToThePolicy() {
        assertEquals(
                Optional.empty(),
                AutoscaleEvaluator.workerHold(snapshot(Map.of(), "RUNNING", "RUNNING"), DELAY, 1_000));
        assertEquals(
                Optional.empty(),
                AutoscaleEvaluator.workerHold(snapshot(Map.of(), "RUNNING", "FAILED"), DELAY, 1_000),
                "a failed task is the policy's to judge (it holds on instability)");
    }
}
