package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class WorkerCapacityCheckTest {

    private final WorkerCapacityCheck check = new WorkerCapacityCheck();

    @Test
    void unreadWorkersSayWhy() {
        Fixture f = new Fixture();
        f.workerCpuUnavailable = "worker 10.0.0.7:8083 runs on another host";
        Finding finding = f.run(check);
        assertEquals(Severity.INFO, finding.severity());
        assertEquals("the workers' CPU is unknown: worker 10.0.0.7:8083 runs on another host", finding.title());
    }

    @Test
    void aScaleUpOntoTheOneWorkerOfALoadedHostIsRefusedWithAddWorkers() {
        // the 5-task sweep point here: one worker using 1.2 of 2 cores, its host's run queue 9.5 threads per core
        Fixture f = new Fixture();
        f.tasksWanted = 5;
        f.workerCpu = List.of(new WorkerCpu("w", 1.2, 2, 9.5));
        Finding finding = f.run(check);
        assertEquals(Severity.CRITICAL, finding.severity());
        assertEquals("3 → 5 tasks: the added tasks would run on CPU-bound worker w (process 1.20 of 2 cores, host load 9.5 per core);"
                + " more tasks there cannot add throughput: add workers", finding.title());
        assertEquals(List.of("w"), finding.evidence().get("workersHostingAddedTasks"));
    }

    @Test
    void aHostBusyWithOtherWorkIsSaidButDoesNotBlockAScale() {
        // a light worker on a machine other processes saturate: its tasks would get CPU as before
        Fixture f = new Fixture();
        f.tasksWanted = 5;
        f.workerCpu = List.of(new WorkerCpu("w", 0.3, 2, 9.5));
        Finding finding = f.run(check);
        assertEquals(Severity.INFO, finding.severity(), finding.title());
        assertTrue(finding.title().contains("is busy with other work"), finding.title());
    }

    @Test
    void aProcessUsingMostOfItsCoresIsCpuBoundOnAQuietHost() {
        Fixture f = new Fixture();
        f.tasksWanted = 4;
        f.workerCpu = List.of(new WorkerCpu("w", 1.8, 2, 0.95));
        assertEquals(Severity.CRITICAL, f.run(check).severity());
        f.workerCpu = List.of(new WorkerCpu("w", 1.6, 2, 0.95));
        assertEquals(Severity.OK, f.run(check).severity());
    }

    @Test
    void addedTasksGoToTheWorkersWithFewestTasksSoOnlyThoseCount() {
        // tasks 0 and 1 on the busy worker a, task 2 on the idle worker b
        Fixture f = new Fixture();
        f.taskWorkers = Map.of(0, "a", 1, "a", 2, "b");
        f.workerCpu = List.of(new WorkerCpu("a", 1.9, 2, 0.97), new WorkerCpu("b", 0.2, 2, 0.1));
        f.tasksWanted = 4;
        Finding oneMore = f.run(check);
        assertEquals(Severity.WARNING, oneMore.severity(), oneMore.title());
        assertEquals(List.of("b"), oneMore.evidence().get("workersHostingAddedTasks"));
        assertTrue(oneMore.title().startsWith("CPU-bound worker a (process 1.90 of 2 cores"), oneMore.title());
        // the second added task ties a and b at two tasks each and lands on a
        f.tasksWanted = 5;
        Finding twoMore = f.run(check);
        assertEquals(Severity.CRITICAL, twoMore.severity());
        assertEquals(List.of("a", "b"), twoMore.evidence().get("workersHostingAddedTasks"));
    }

    @Test
    void withCpuToSpareOrNoTaskAddedNothingIsRefused() {
        Fixture f = new Fixture();
        f.workerCpu = List.of(new WorkerCpu("w", 0.5, 2, 0.4));
        f.tasksWanted = 6;
        Finding spare = f.run(check);
        assertEquals(Severity.OK, spare.severity());
        assertEquals("every worker has CPU to spare (busiest: w (process 0.50 of 2 cores, host load 0.4 per core))", spare.title());
        f.workerCpu = List.of(new WorkerCpu("w", 1.5, 2, 3.0));
        f.tasksWanted = 3;
        assertEquals(Severity.WARNING, f.run(check).severity(), "a busy worker is said, but keeping the tasks is no scale-up");
    }
}
