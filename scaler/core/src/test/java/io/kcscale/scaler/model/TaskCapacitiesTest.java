package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TaskCapacitiesTest {

    private static final List<PipelineSample.TaskState> TWO_RUNNING =
            List.of(new PipelineSample.TaskState(0, "RUNNING", "w1"), new PipelineSample.TaskState(1, "RUNNING", "w2"));

    /** A task read through its exporter: its consumer's poll-idle ratio and its read rate. */
    private static PipelineSample.TaskMetrics polled(double pollIdle, double readPerSecond) {
        return new PipelineSample.TaskMetrics("exporter", pollIdle, 0.0, null, readPerSecond, null, null, null);
    }

    private static PipelineSample sample(
            long at, List<PipelineSample.TaskState> tasks, PipelineSample.WorkerMetrics metrics) {
        return sample(at, tasks, metrics, SinkWrites.IN_PUT);
    }

    private static PipelineSample sample(
            long at, List<PipelineSample.TaskState> tasks, PipelineSample.WorkerMetrics metrics, SinkWrites writes) {
        Map<TopicPartition, Long> offsets = Map.of(new TopicPartition("t", 0), 100L, new TopicPartition("t", 1), 100L);
        return SampleBuilder.at(at)
                .tasksMax(tasks.size())
                .tasks(tasks)
                .offsets(offsets)
                .assignment(Map.of(new TopicPartition("t", 0), 0, new TopicPartition("t", 1), 1))
                .workerMetrics(metrics)
                .writes(writes)
                .build();
    }

    private static PipelineSample.WorkerMetrics both(PipelineSample.TaskMetrics zero, PipelineSample.TaskMetrics one) {
        return new PipelineSample.WorkerMetrics(Map.of(0, zero, 1, one), Map.of());
    }

    @Test
    void aSinkWhosePutDoesNotWaitForItsWritesHasNoCapacityReadFromItsPutTime() {
        List<PipelineSample> window = new ArrayList<>();
        // a bulk task as measured: 5% of its time in put() at 5,200 records/s, which would read 104,000/s
        for (int i = 0; i < 15; i++) {
            window.add(sample(
                    i * 2_000L, TWO_RUNNING, both(polled(0.95, 5_200), polled(0.95, 5_200)), SinkWrites.BEHIND_PUT));
        }
        PipelineSnapshot s = SnapshotDerivation.derive(window, 30);
        assertFalse(s.capacity().known());
        assertTrue(
                s.capacity().unknown().contains("put() hands records to a writer of its own"),
                s.capacity().unknown());
        assertNull(s.busyFraction());
        s.tasks().forEach(t -> {
            assertFalse(t.capacity().known());
            assertNull(t.busyFraction());
        });
        // the same readings from a sink that writes in put() are read as they come
        window.replaceAll(w -> sample(w.atMillis(), TWO_RUNNING, w.workerMetrics(), SinkWrites.IN_PUT));
        assertTrue(SnapshotDerivation.derive(window, 30).capacity().known());
    }

    @Test
    void aTaskAThirdBusyTellsItsLimitAsItsRateOverItsBusyFraction() {
        List<PipelineSample> window = new ArrayList<>();
        // task 0 at 21 records/s, 30% busy: a limit of 70; task 1 at 20, 25% busy: 80
        for (int i = 0; i < 15; i++) {
            window.add(sample(i * 2_000L, TWO_RUNNING, both(polled(0.7, 21), polled(0.75, 20))));
        }
        PipelineSnapshot s = SnapshotDerivation.derive(window, 30);
        PipelineSnapshot.Task zero = s.tasks().get(0);
        assertEquals(0.3, zero.busyFraction(), 1e-9);
        assertEquals(70, zero.capacity().recordsPerSecond(), 1e-9);
        assertEquals(15, zero.capacity().samples());
        assertEquals("poll-idle", zero.capacity().busyFrom());
        assertEquals("exporter", zero.capacity().source());
        assertFalse(zero.capacity().rising(), "the same reading throughout");
        assertNull(zero.capacity().unknown());
        assertEquals(80, s.tasks().get(1).capacity().recordsPerSecond(), 1e-9);
        // one task's capacity from both tasks' readings: 30 samples, the central 90% from 70 to 80
        assertEquals(30, s.capacity().samples());
        assertEquals(75, s.capacity().recordsPerSecond(), 1e-9);
        assertEquals(70, s.capacity().low(), 1e-9);
        assertEquals(80, s.capacity().high(), 1e-9);
        assertEquals(0.275, s.busyFraction(), 1e-9);
    }

    @Test
    void theSpreadIsTheCentralNinetyPercentOfTheWindowsReadings() {
        List<PipelineSample> window = new ArrayList<>();
        List<PipelineSample.TaskState> one = List.of(new PipelineSample.TaskState(0, "RUNNING", "w1"));
        // capacities 41..60: the 5th percentile is the 1st of 20 (floor(0.95)), the 95th the 20th (ceil(18.05))
        for (int i = 0; i < 20; i++) {
            window.add(sample(
                    i * 1_000L,
                    one,
                    new PipelineSample.WorkerMetrics(Map.of(0, polled(0.5, (41 + i) / 2.0)), Map.of())));
        }
        PipelineSnapshot.Capacity c =
                SnapshotDerivation.derive(window, 30).tasks().get(0).capacity();
        assertEquals(41, c.low(), 1e-9);
        assertEquals(60, c.high(), 1e-9);
        assertEquals(50.5, c.recordsPerSecond(), 1e-9);
        assertTrue(c.rising(), "the newer half's median 55.5 is 22% above the older half's 45.5");
    }

    @Test
    void aCapacityRisesWhenTheNewerHalfOfATasksReadingsLiesMoreThanFivePercentAboveTheOlder() {
        record Case(String what, List<Double> readings, boolean rising) {}
        for (Case c : List.of(
                new Case("a task warming up after its start", List.of(36.0, 53.0, 75.0, 95.0, 147.0, 150.0), true),
                new Case("flat", List.of(50.0, 51.0, 49.0, 50.0, 51.0, 50.0), false),
                new Case("5% up exactly is not rising", List.of(100.0, 100.0, 100.0, 105.0, 105.0, 105.0), false),
                new Case(
                        "one slow reading in the newer half does not hide a rise",
                        List.of(40.0, 41.0, 40.0, 50.0, 12.0, 50.0),
                        true),
                new Case(
                        "one fast reading in the newer half does not make one",
                        List.of(40.0, 41.0, 40.0, 40.0, 90.0, 41.0),
                        false),
                new Case("falling", List.of(60.0, 58.0, 59.0, 40.0, 41.0, 40.0), false),
                new Case("too few readings to tell", List.of(36.0, 53.0, 75.0, 95.0, 147.0), false))) {
            assertEquals(c.rising(), TaskCapacities.rising(c.readings()), c.what());
        }
    }

    @Test
    void theBusyTimeIsThePutTimesShareOfEachPollCycleOverThePollIdleRatio() {
        // as measured on a per-record task at 11 records/s, a record or none per poll: 25.7 ms of put in a cycle of
        // 84.2 ms is 31% busy, a capacity of 36; Kafka's poll-idle ratio, a mean over polls that weighs a poll that
        // returned at once as much as one that waited, said 59% busy, a capacity of 18, where 37.5 was sustained
        PipelineSample.TaskMetrics measured =
                new PipelineSample.TaskMetrics("exporter", 0.406, 0.0, 84.2, 11.01, 25.7, 0.93, null);
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(sample(0, TWO_RUNNING, both(measured, measured))), 30);
        assertEquals(25.7 / 84.2, s.tasks().get(0).busyFraction(), 1e-9);
        assertEquals(11.01 / (25.7 / 84.2), s.tasks().get(0).capacity().recordsPerSecond(), 1e-9);
        assertEquals("put-time", s.capacity().busyFrom());
    }

    @Test
    void withoutTheTimeBetweenPollsThePutTimeIsTimesPutsPerSecondAndWithoutEitherThePollIdleRatio() {
        // 40 ms per put of 2 records at 10 records/s: 5 puts/s, 0.2 s of put per second
        PipelineSample.TaskMetrics put =
                new PipelineSample.TaskMetrics("prometheus", 0.5, null, null, 10.0, 40.0, 2.0, null);
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(sample(0, TWO_RUNNING, both(put, put)), sample(2_000, TWO_RUNNING, both(put, put))), 30);
        assertEquals(0.2, s.tasks().get(0).busyFraction(), 1e-9);
        assertEquals(50, s.tasks().get(0).capacity().recordsPerSecond(), 1e-9);
        assertEquals("put-time", s.capacity().busyFrom());
        assertEquals("prometheus", s.capacity().source());
        PipelineSnapshot idle =
                SnapshotDerivation.derive(List.of(sample(0, TWO_RUNNING, both(polled(0.7, 21), put))), 30);
        assertEquals("poll-idle", idle.tasks().get(0).capacity().busyFrom());
        assertEquals("poll-idle,put-time", idle.capacity().busyFrom(), "tasks that differ say both");
    }

    @Test
    void aNearIdleTaskHasNoCapacityButItsBusyFractionCounts() {
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(
                        sample(0, TWO_RUNNING, both(polled(0.98, 1), polled(0.7, 21))),
                        sample(2_000, TWO_RUNNING, both(polled(0.97, 1.2), polled(0.7, 21)))),
                30);
        PipelineSnapshot.Task idle = s.tasks().get(0);
        assertEquals(0.03, idle.busyFraction(), 1e-9);
        assertFalse(idle.capacity().known());
        assertTrue(
                idle.capacity().unknown().startsWith("near idle: at most 3.0% busy over the window (1.20 records/s)"),
                idle.capacity().unknown());
        // the sink's per-task capacity from the task that tells it; the busy fraction is every running task's
        assertEquals(70, s.capacity().recordsPerSecond(), 1e-9);
        assertEquals(2, s.capacity().samples());
        assertEquals((0.03 + 0.3) / 2, s.busyFraction(), 1e-9);
    }

    @Test
    void noTaskBusyEnoughLeavesTheCapacityUnknownSayingWhy() {
        PipelineSnapshot s =
                SnapshotDerivation.derive(List.of(sample(0, TWO_RUNNING, both(polled(0.99, 0.5), polled(1.0, 0)))), 30);
        assertFalse(s.capacity().known());
        assertTrue(
                s.capacity().unknown().startsWith("task 0: near idle"),
                s.capacity().unknown());
        assertTrue(
                s.capacity().unknown().contains("; task 1: near idle: at most 0.0% busy"),
                s.capacity().unknown());
    }

    @Test
    void aTaskItsWorkerDidNotAnswerForIsUnknownWithItsWorkersReasonAndTheMeanBusyFractionIsUnknown() {
        String why = "exporter: http://w2:9404/metrics did not answer within 3 s";
        PipelineSample.WorkerMetrics halfRead =
                new PipelineSample.WorkerMetrics(Map.of(0, polled(0.7, 21)), Map.of(1, why));
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(sample(0, TWO_RUNNING, halfRead)), 30);
        assertEquals(why, s.tasks().get(1).capacity().unknown());
        assertNull(s.tasks().get(1).busyFraction());
        assertNull(s.busyFraction(), "a mean over some of the running tasks would pass for all of them");
        assertEquals(70, s.capacity().recordsPerSecond(), 1e-9);
    }

    @Test
    void withoutTheWorkersMetricsEveryFigureIsUnknownNamingTheSettingsThatReadThem() {
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(sample(0, TWO_RUNNING, null)), 30);
        assertEquals(TaskCapacities.NOT_READ, s.tasks().get(0).capacity().unknown());
        assertTrue(
                s.capacity().unknown().contains("--worker-metrics-url"),
                s.capacity().unknown());
        assertNull(s.busyFraction());
    }

    @Test
    void aTaskThatIsNotRunningHasNoCapacityAndReadingsFromBeforeItStoppedDoNotCount() {
        List<PipelineSample.TaskState> paused = List.of(
                new PipelineSample.TaskState(0, "PAUSED", "w1"), new PipelineSample.TaskState(1, "RUNNING", "w2"));
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(
                        sample(0, TWO_RUNNING, both(polled(0.7, 21), polled(0.7, 21))),
                        sample(2_000, paused, both(polled(1.0, 0), polled(0.7, 21)))),
                30);
        assertEquals("task 0 is PAUSED", s.tasks().get(0).capacity().unknown());
        assertEquals(2, s.capacity().samples(), "only the running task's two readings");
        assertEquals(0.3, s.busyFraction(), 1e-9);
    }

    @Test
    void aBusyFractionOutsideZeroToOneIsHeldToIt() {
        Map<Integer, PipelineSample.TaskMetrics> odd = new TreeMap<>();
        odd.put(0, polled(-0.2, 10));
        odd.put(1, polled(Double.NaN, 10));
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(sample(0, TWO_RUNNING, new PipelineSample.WorkerMetrics(odd, Map.of()))), 30);
        assertEquals(1.0, s.tasks().get(0).busyFraction(), 1e-9);
        assertEquals(10, s.tasks().get(0).capacity().recordsPerSecond(), 1e-9);
        assertNull(s.tasks().get(1).busyFraction(), "NaN, as Kafka's average before its first poll, is no reading");
    }
}
