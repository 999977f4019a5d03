package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SampleBuilder;
import io.kcscale.scaler.model.SnapshotDerivation;
import io.kcscale.scaler.model.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LiveTaskPredictionTest {

    private static final int PARTITIONS = 20;

    /**
     * One task on 20 partitions, 30% busy, read at 20 to 22 records/s over 11 samples: a capacity of 66.7 to 73.3,
     * 70 at the median; Elasticsearch queues {@code writeQueue} writes.
     */
    private static PipelineSnapshot observed(PipelineSample.WorkerMetrics metrics, int writeQueue) {
        List<PipelineSample> window = new ArrayList<>();
        Map<TopicPartition, Long> offsets = new TreeMap<>();
        Map<TopicPartition, Integer> assignment = new TreeMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            offsets.put(new TopicPartition("stocks", p), 100L);
            assignment.put(new TopicPartition("stocks", p), 0);
        }
        for (int i = 0; i <= 10; i++) {
            PipelineSample.WorkerMetrics m = metrics != null
                    ? metrics
                    : new PipelineSample.WorkerMetrics(
                            Map.of(
                                    0,
                                    new PipelineSample.TaskMetrics(
                                            "exporter", 0.7, 0.0, null, 20 + i * 0.2, null, null, null)),
                            Map.of());
            window.add(SampleBuilder.at(i * 2_000L)
                    .connector("stocks-es-sink")
                    .topics(List.of("stocks"))
                    .tasks(List.of(new PipelineSample.TaskState(0, "RUNNING", "w:8083")))
                    .offsets(offsets)
                    .assignment(assignment)
                    .index("stocks", 1000L + i, 1, 0)
                    .elasticsearch(1, 0L, writeQueue)
                    .workerMetrics(m)
                    .build());
        }
        return SnapshotDerivation.derive(window, 30);
    }

    private static TasksRequest request(double targetRate) {
        return new TasksRequest(targetRate, null, null, null, null, null, null, null, null, "stocks-es-sink");
    }

    @Test
    void tasksSizedFromTheLiveCapacityWithItsRangeAndTheTasksAsTheLimit() {
        TasksResult r = LiveTaskPrediction.predict(request(300), observed(null, 0), tasks -> List.of());
        // 300 / 0.8 = 375 records/s: 6 tasks at 70, 6 at 73.3, 6 at 66.7
        assertEquals(70, r.perTaskRate(), 1e-9);
        assertEquals(6, r.recommendedTasks());
        TasksResult.Live live = r.live();
        assertEquals(70, live.perTaskCapacity().estimate(), 1e-9);
        assertEquals(20 / 0.3, live.perTaskCapacity().low(), 1e-9);
        assertEquals(22 / 0.3, live.perTaskCapacity().high(), 1e-9);
        assertEquals(new TasksResult.TaskInterval(6, 6, 6), live.recommendedTasks());
        assertEquals(6 * 20 / 0.3, live.sustainedRate().low(), 1e-9);
        assertEquals(11, live.samples());
        assertEquals(0.9, live.level());
        assertEquals(0.3, live.busyFraction(), 1e-9);
        assertEquals("tasks", live.limitedBy());
        assertEquals(1, live.limits().size());
        assertTrue(
                live.limits()
                        .get(0)
                        .detail()
                        .startsWith(
                                "each task can do 70 records/s (66.67 to 73.33); its 1" + " running task(s) now do "),
                live.limits().get(0).detail());
        assertTrue(
                r.assumptions().get(0).startsWith("one task can do 70 records/s, measured live on stocks-es-sink"),
                r.assumptions().get(0));
        assertTrue(
                r.advice().get(0).startsWith("limited by tasks: each task can do 70"),
                r.advice().get(0));
    }

    @Test
    void aCapacityStillRisingIsSaidToErrTowardsMoreTasks() {
        // the fixture's readings climb from 20 to 22 records/s: the newer half's median 5.9% above the older half's
        TasksResult rising = LiveTaskPrediction.predict(request(300), observed(null, 0), tasks -> List.of());
        assertTrue(
                rising.assumptions().stream().anyMatch(a -> a.startsWith("the capacity is still rising")),
                String.join("\n", rising.assumptions()));
        PipelineSample.WorkerMetrics flat = new PipelineSample.WorkerMetrics(
                Map.of(0, new PipelineSample.TaskMetrics("exporter", 0.7, 0.0, null, 21.0, null, null, null)),
                Map.of());
        TasksResult settled = LiveTaskPrediction.predict(request(300), observed(flat, 0), tasks -> List.of());
        assertFalse(settled.assumptions().stream().anyMatch(a -> a.contains("rising")));
    }

    @Test
    void theRangeOfTheCapacityWidensTheTaskCount() {
        // 1,000 / 0.8 = 1,250 records/s: 18 tasks at 70, 18 at 73.3 (17.05 → 18), 19 at 66.7 (18.75 → 19)
        TasksResult r = LiveTaskPrediction.predict(request(1000), observed(null, 0), tasks -> List.of());
        assertEquals(new TasksResult.TaskInterval(18, 18, 19), r.live().recommendedTasks());
    }

    @Test
    void moreTasksThanPartitionsAreLimitedByThePartitions() {
        // 2,000 / 0.8 = 2,500 records/s: up to 38 tasks at 66.7 each
        TasksResult r = LiveTaskPrediction.predict(request(2000), observed(null, 0), tasks -> List.of());
        assertEquals("partitions", r.live().limitedBy());
        TasksResult.Limit partitions = r.live().limits().get(1);
        assertTrue(partitions.binding());
        assertTrue(
                partitions
                        .detail()
                        .startsWith("at most 20 tasks get a partition (the topic has 20 partitions) and"
                                + " up to 38 may be needed"),
                partitions.detail());
        assertFalse(r.live().limits().get(0).binding(), "the tasks do not set the answer past the partitions");
    }

    @Test
    void aSinkThatQueuesWritesIsTheLimit() {
        TasksResult r = LiveTaskPrediction.predict(request(100), observed(null, 12), tasks -> List.of());
        assertEquals("sink", r.live().limitedBy());
        assertTrue(
                r.advice()
                        .get(0)
                        .startsWith("limited by sink: Elasticsearch pushes back (0 write rejections/s, 12"
                                + " writes queued)"),
                r.advice().get(0));
    }

    @Test
    void criticalFindingsForTheTasksWantedLimitItAndWarningsAreListed() {
        List<Finding> findings = List.of(
                new Finding("key-cardinality", Severity.CRITICAL, "only 2 distinct keys", Map.of(), ""),
                new Finding("worker-capacity", Severity.INFO, "the CPU of worker w:8083 is unknown", Map.of(), ""),
                new Finding("index-shards", Severity.WARNING, "1 primary shard for 6 tasks", Map.of(), ""),
                new Finding("stability", Severity.WARNING, "a rebalance", Map.of(), ""));
        List<Integer> askedFor = new ArrayList<>();
        TasksResult r = LiveTaskPrediction.predict(request(300), observed(null, 0), tasks -> {
            askedFor.add(tasks);
            return findings;
        });
        assertEquals(List.of(6), askedFor, "judged for the most tasks the range may need");
        assertEquals("keys", r.live().limitedBy());
        assertEquals(
                List.of(
                        new TasksResult.Limit("sink", false, "1 primary shard for 6 tasks"),
                        new TasksResult.Limit("keys", true, "only 2 distinct keys"),
                        new TasksResult.Limit("worker-cpu", false, "unknown: the CPU of worker w:8083 is unknown")),
                r.live().limits().subList(1, 4));
    }

    @Test
    void anUnknownCapacityIsOneLineSayingWhatIsMissingNotAGuess() {
        PipelineSample.WorkerMetrics unread = new PipelineSample.WorkerMetrics(
                Map.of(), Map.of(0, "exporter: http://w:9404/metrics did not answer within 3 s"));
        String line = assertThrows(
                        LiveTaskPrediction.UnknownCapacityException.class,
                        () -> LiveTaskPrediction.predict(request(300), observed(unread, 0), tasks -> List.of()))
                .getMessage();
        assertEquals(
                "stocks-es-sink's per-task capacity is unknown: task 0: exporter: http://w:9404/metrics did not answer"
                        + " within 3 s; give --per-task-rate (perTaskRate) to predict from a rate of your own",
                line);
    }

    @Test
    void aConnectorWithARateOfItsOwnIsRefusedAndTheOfflinePredictionAsksForTheScaler() {
        TasksRequest both = new TasksRequest(300.0, 70.0, null, null, null, null, null, null, null, "stocks-es-sink");
        assertEquals(
                "connector",
                assertThrows(
                                InvalidInputException.class,
                                () -> LiveTaskPrediction.predict(both, observed(null, 0), tasks -> List.of()))
                        .field());
        assertEquals(
                "connector",
                assertThrows(InvalidInputException.class, () -> TaskPrediction.predict(request(300)))
                        .field());
        assertNull(TaskPrediction.predict(new TasksRequest(300.0, 70.0, null, null, null, null, null, null))
                .live());
    }
}
