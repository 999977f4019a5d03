package io.kcscale.scaler.model;

import java.util.List;
import java.util.Map;

/**
 * A {@link PipelineSample} for tests, one reading set at a time: a sink {@code "sink"} whose group is stable, nothing
 * unreachable, no index, no dead letters and no worker metrics, until a test says otherwise.
 */
public final class SampleBuilder {

    private final long atMillis;
    private String connector = "sink";
    private Integer tasksMax = 1;
    private List<String> topics = List.of("t");
    private List<PipelineSample.TaskState> tasks = List.of();
    private Map<TopicPartition, Long> endOffsets = Map.of();
    private Map<TopicPartition, Long> committedOffsets = Map.of();
    private Map<TopicPartition, Integer> assignment = Map.of();
    private String groupState = "STABLE";
    private String groupAssignor = "range";
    private List<PipelineSample.IndexReading> indexes = List.of();
    private Integer dataNodes = 1;
    private Long writeRejected = 0L;
    private Integer writeQueue = 0;
    private List<String> unreachable = List.of();
    private PipelineSample.WorkerMetrics workerMetrics;
    private SinkWrites writes;

    private SampleBuilder(long atMillis) {
        this.atMillis = atMillis;
    }

    public static SampleBuilder at(long atMillis) {
        return new SampleBuilder(atMillis);
    }

    public SampleBuilder connector(String name) {
        connector = name;
        return this;
    }

    public SampleBuilder tasksMax(Integer n) {
        tasksMax = n;
        return this;
    }

    public SampleBuilder topics(List<String> names) {
        topics = names;
        return this;
    }

    public SampleBuilder tasks(List<PipelineSample.TaskState> states) {
        tasks = states;
        return this;
    }

    /** The same offsets both ends: a group that has committed everything appended. */
    public SampleBuilder offsets(Map<TopicPartition, Long> endAndCommitted) {
        return offsets(endAndCommitted, endAndCommitted);
    }

    public SampleBuilder offsets(Map<TopicPartition, Long> end, Map<TopicPartition, Long> committed) {
        endOffsets = end;
        committedOffsets = committed;
        return this;
    }

    public SampleBuilder assignment(Map<TopicPartition, Integer> owners) {
        assignment = owners;
        return this;
    }

    public SampleBuilder group(String state, String assignor) {
        groupState = state;
        groupAssignor = assignor;
        return this;
    }

    /** One index (not an alias) with what its stats say. */
    public SampleBuilder index(String name, Long indexTotal, Integer primaryShards, Integer replicas) {
        return indexes(List.of(
                new PipelineSample.IndexReading(name, name, indexTotal, primaryShards, replicas, null, null, null)));
    }

    public SampleBuilder indexes(List<PipelineSample.IndexReading> readings) {
        indexes = readings;
        return this;
    }

    public SampleBuilder elasticsearch(Integer nodes, Long rejected, Integer queue) {
        dataNodes = nodes;
        writeRejected = rejected;
        writeQueue = queue;
        return this;
    }

    public SampleBuilder unreachable(List<String> what) {
        unreachable = what;
        return this;
    }

    public SampleBuilder workerMetrics(PipelineSample.WorkerMetrics metrics) {
        workerMetrics = metrics;
        return this;
    }

    public SampleBuilder writes(SinkWrites how) {
        writes = how;
        return this;
    }

    public PipelineSample build() {
        return new PipelineSample(
                atMillis,
                connector,
                "sink",
                tasksMax,
                topics,
                tasks,
                endOffsets,
                committedOffsets,
                assignment,
                groupState,
                groupAssignor,
                indexes,
                dataNodes,
                writeRejected,
                writeQueue,
                unreachable,
                Map.of(),
                null,
                workerMetrics,
                writes);
    }
}
