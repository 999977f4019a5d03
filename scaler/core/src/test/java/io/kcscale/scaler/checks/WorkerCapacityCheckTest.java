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
    void theFiveTaskSweepPointOnASaturatedHostIsAWarningNotARefusal() {
        // measured here (per-record sink, full speed, the machine running only the sweeps; docs/checks.md's table):
        // at 5 tasks the worker used 0.84 of 2 cores while the host was 86% busy (Kafka and Elasticsearch beside
        // it); in another run 0.80 at 84%, and at 1 task 0.43 at 54%
        Fixture f = new Fixture();
        f.tasksWanted = 4;
        f.workerCpu = List.of(new WorkerCpu("w", 0.84, 2, 0.86));
        Finding finding = f.run(check);
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals(
                "3 → 4 tasks: the added tasks would share the saturated host of worker w (process 0.84 of 2 cores, host 86% busy; from proc)"
                        + " (other processes: 0.88 cores); expect less than a task's worth each",
                finding.title());
        assertEquals(List.of("w"), finding.evidence().get("workersHostingAddedTasks"));
        assertEquals(
                Map.of(
                        "source",
                        "proc",
                        "processCores",
                        0.84,
                        "hostProcessors",
                        2,
                        "hostBusy",
                        0.86,
                        "shareOfHostUse",
                        0.49,
                        "cpuBound",
                        false),
                worker(finding, "w"));

        f.workerCpu = List.of(new WorkerCpu("w", 0.80, 2, 0.84));
        assertEquals(Severity.OK, f.run(check).severity(), "a sixth of the host's time idle: below the line");
        f.workerCpu = List.of(new WorkerCpu("w", 0.43, 2, 0.54));
        assertEquals(Severity.OK, f.run(check).severity());
    }

    @Test
    void aSaturatedHostWhoseWorkerHasCpuToSpareIsSaidButDoesNotBlockAScale() {
        // a worker on a machine other processes saturate (other jobs, an Elasticsearch node taking the cores while
        // bulk requests drain, JVMs warming up right after a start): the worker's own CPU is not what is spent
        Fixture f = new Fixture();
        f.tasksWanted = 5;
        f.workerCpu = List.of(new WorkerCpu("w", 0.44, 2, 0.95));
        Finding finding = f.run(check);
        assertEquals(Severity.WARNING, finding.severity(), finding.title());
        // the quick start's first scale, early: process 0.65 of 2 cores on a host 88% busy
        f.workerCpu = List.of(new WorkerCpu("w", 0.65, 2, 0.88));
        assertEquals(
                Severity.WARNING, f.run(check).severity(), "a third of the host is no refusal: the rest is others'");
        // no task added: said for what it is
        f.tasksWanted = 3;
        Finding kept = f.run(check);
        assertEquals(Severity.INFO, kept.severity(), kept.title());
        assertEquals(
                "the host of worker w (process 0.65 of 2 cores, host 88% busy; from proc) is busy with other work (other processes: 1.11 cores)",
                kept.title());
    }

    @Test
    void whereTheHostGivesNoCountersOnlyTheProcessJudges() {
        Fixture f = new Fixture();
        f.tasksWanted = 4;
        f.workerCpu = List.of(new WorkerCpu("w", 1.2, 2, Double.NaN));
        Finding finding = f.run(check);
        assertEquals(Severity.OK, finding.severity(), finding.title());
        assertTrue(finding.title().contains("host's busy time not read"), finding.title());
        assertEquals(
                Map.of("source", "proc", "processCores", 1.2, "hostProcessors", 2, "cpuBound", false),
                worker(finding, "w"));
        f.workerCpu = List.of(new WorkerCpu("w", 1.8, 2, Double.NaN));
        assertEquals(Severity.CRITICAL, f.run(check).severity());
    }

    @Test
    void aProcessUsingMostOfItsCoresIsCpuBoundOnAQuietHost() {
        Fixture f = new Fixture();
        f.tasksWanted = 4;
        f.workerCpu = List.of(new WorkerCpu("w", 1.8, 2, 0.95));
        assertEquals(Severity.CRITICAL, f.run(check).severity());
        f.workerCpu = List.of(new WorkerCpu("w", 1.6, 2, 0.82));
        assertEquals(Severity.OK, f.run(check).severity());
    }

    @Test
    void addedTasksGoToTheWorkersWithFewestTasksSoOnlyThoseCount() {
        // tasks 0 and 1 on the busy worker a, task 2 on the idle worker b (hosts of their own)
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
        assertEquals(
                "every worker has CPU to spare (busiest: w (process 0.50 of 2 cores, host 40% busy; from proc))",
                spare.title());
        f.workerCpu = List.of(new WorkerCpu("w", 1.8, 2, 0.95));
        f.tasksWanted = 3;
        assertEquals(
                Severity.WARNING,
                f.run(check).severity(),
                "a CPU-bound worker is said, but keeping the tasks is no scale-up");
    }

    @Test
    void aWorkerNoSourceReadIsUnknownNeverOk() {
        Fixture f = new Fixture();
        f.taskWorkers = Map.of(0, "a", 1, "a", 2, "b");
        String why = "exporter: no URL for it (--worker-metrics-url); proc: not a process on the scaler's host";
        f.workerCpu = List.of(WorkerCpu.read("a", 0.3, 2, 0.4, WorkerCpuSource.EXPORTER), WorkerCpu.unknown("b", why));
        f.tasksWanted = 3;
        Finding kept = f.run(check);
        assertEquals(Severity.INFO, kept.severity(), "an unread worker is said even when no task is added");
        assertEquals("the CPU of worker b (" + why + ") is unknown", kept.title());
        assertEquals(Map.of("source", "unknown", "unknown", why), worker(kept, "b"));
        assertEquals("exporter", worker(kept, "a").get("source"));
        assertTrue(kept.advice().contains("--prometheus-url"), kept.advice());
        // a CPU-bound worker that was read still refuses, whatever is unknown beside it
        f.workerCpu =
                List.of(WorkerCpu.read("a", 1.9, 2, 0.97, WorkerCpuSource.PROMETHEUS), WorkerCpu.unknown("b", why));
        f.tasksWanted = 5;
        Finding refused = f.run(check);
        assertEquals(Severity.CRITICAL, refused.severity());
        assertTrue(
                refused.title().contains("a (process 1.90 of 2 cores, host 97% busy; from prometheus)"),
                refused.title());
    }

    @Test
    void aWorkerInAContainerIsJudgedAgainstItsLimit() {
        // one processor granted of a host's many: a process using 0.9 core has none to give a new task
        Fixture f = new Fixture();
        f.tasksWanted = 4;
        f.workerCpu = List.of(WorkerCpu.read("w", 0.9, 1, 0.95, WorkerCpuSource.EXPORTER));
        assertEquals(Severity.CRITICAL, f.run(check).severity());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> worker(Finding finding, String id) {
        return (Map<String, Object>) ((Map<String, Object>) finding.evidence().get("workers")).get(id);
    }
}
