package io.kcscale.scaler.model;

import java.util.List;
import java.util.Map;

/**
 * One observation of a sink pipeline at {@code atMillis}, as the observers read it: raw counters,
 * no rates. A part whose system did not answer is null and its reason is in {@code unreachable}.
 *
 * @param connector         the sink connector's name
 * @param tasksMax          {@code tasks.max} from its config, or null
 * @param topics            topics the sink reads
 * @param tasks             each task's Connect state and worker, or null when Connect did not answer
 * @param endOffsets        log-end offset per partition of every topic the sink reads, or null
 * @param committedOffsets  the sink group's committed offset per partition of those topics, or null
 * @param assignment        partition → task id, from the group's members, or null
 * @param groupState        the sink consumer group's state (e.g. STABLE), or null
 * @param groupAssignor     the assignor the sink group uses (e.g. range), empty when it has no members, or null
 * @param indexes           each index the sink writes to, as read; empty when it writes to none the scaler knows
 * @param dataNodes         data nodes in the Elasticsearch cluster, or null
 * @param writeRejected     write requests Elasticsearch's nodes rejected ever (thread pool), or null
 * @param writeQueue        write requests queued on Elasticsearch's nodes now, or null
 * @param unreachable       one line per system that did not answer, or answered with an error
 * @param unreachableWorkers the workers Connect places this connector or its tasks on that did not answer the scaler's
 *                          probe, each with when the scaler first found it so (epoch millis)
 * @param deadLetters       the sink's dead-letter topic as read, or null when the sink has none
 * @param workerMetrics     what the workers publish of the sink's tasks (their JMX exporters, or a Prometheus scraping
 *                          them), or null when the sample's maker reads none
 * @param writes            whether the sink's {@code put()} returns once its records are written (its config says), or
 *                          null when the sample's maker does not say
 */
public record PipelineSample(
        long atMillis,
        String connector,
        String connectorType,
        Integer tasksMax,
        List<String> topics,
        List<TaskState> tasks,
        Map<TopicPartition, Long> endOffsets,
        Map<TopicPartition, Long> committedOffsets,
        Map<TopicPartition, Integer> assignment,
        String groupState,
        String groupAssignor,
        List<IndexReading> indexes,
        Integer dataNodes,
        Long writeRejected,
        Integer writeQueue,
        List<String> unreachable,
        Map<String, Long> unreachableWorkers,
        DeadLetterReading deadLetters,
        WorkerMetrics workerMetrics,
        SinkWrites writes) {

    /** This sample, its readings per partition held as maps that share their partitions with {@code earlier}'s. */
    public PipelineSample sharingPartitionsWith(PipelineSample earlier) {
        return new PipelineSample(
                atMillis,
                connector,
                connectorType,
                tasksMax,
                topics,
                tasks,
                PartitionMap.of(endOffsets, earlier == null ? null : earlier.endOffsets),
                PartitionMap.of(committedOffsets, earlier == null ? null : earlier.committedOffsets),
                PartitionMap.of(assignment, earlier == null ? null : earlier.assignment),
                groupState,
                groupAssignor,
                indexes,
                dataNodes,
                writeRejected,
                writeQueue,
                unreachable,
                unreachableWorkers,
                deadLetters,
                workerMetrics,
                writes);
    }

    /**
     * What the workers publish of a sink's tasks at one sample.
     *
     * @param tasks  each task read, by task id
     * @param unread each task that was not, with why (no exporter set, its worker's exporter did not answer, its
     *               metrics are not among what the exporter publishes), by task id
     */
    public record WorkerMetrics(Map<Integer, TaskMetrics> tasks, Map<Integer, String> unread) {

        public WorkerMetrics {
            tasks = Map.copyOf(tasks);
            unread = Map.copyOf(unread);
        }
    }

    /**
     * One sink task as its worker publishes it (Connect's {@code sink-task-metrics} and {@code connector-task-metrics},
     * its consumer's {@code consumer-metrics} and {@code consumer-fetch-manager-metrics}); a figure not published is
     * null. Each is Kafka's own average or rate over its metrics window ({@code metrics.sample.window.ms} ×
     * {@code metrics.num.samples}, 30 s × 2 by default).
     *
     * @param source             where it was read: {@code exporter} or {@code prometheus}
     * @param pollIdleRatio      {@code poll-idle-ratio-avg}: the share of time its consumer waited in {@code poll()}
     * @param lastPollSecondsAgo {@code last-poll-seconds-ago}: since its consumer last returned from {@code poll()}
     * @param timeBetweenPollAvgMillis {@code time-between-poll-avg}: from one {@code poll()} to the next, a whole cycle
     *                           of polling, converting and {@code put()}
     * @param readPerSecond      {@code sink-record-read-rate}: records it read from Kafka per second
     * @param putBatchAvgMillis  {@code put-batch-avg-time-ms}: how long one {@code put()} took
     * @param batchSizeAvg       {@code batch-size-avg}: records per {@code put()}
     * @param recordsLag         {@code records-lag} of each partition it consumes: records past its consumer's position,
     *                           as of its last fetch of the partition; null when none is published
     */
    public record TaskMetrics(
            String source,
            Double pollIdleRatio,
            Double lastPollSecondsAgo,
            Double timeBetweenPollAvgMillis,
            Double readPerSecond,
            Double putBatchAvgMillis,
            Double batchSizeAvg,
            Map<TopicPartition, Long> recordsLag) {}

    /**
     * The sink's dead-letter topic at the sample.
     *
     * @param total        records it holds, the sum of its partitions' end offsets; null when it could not be read
     * @param latestReason why Connect dead-lettered its newest record ({@code __connect.errors.exception.message}), or null
     */
    public record DeadLetterReading(String topic, Long total, String latestReason) {}

    /**
     * One index the sink writes to, as read at the sample.
     *
     * @param name          the index, alias or data stream as the sink's config (or the operator) names it
     * @param writeIndex    the index writes land in: {@code name} itself, an alias's write index or a data stream's newest
     *                      backing index; null when it could not be resolved
     * @param indexTotal    index operations Elasticsearch counted on the write index, or null
     * @param primaryShards the write index's primary shards, or null
     * @param replicas      the write index's replicas per primary, or null
     * @param problem       why {@code name} could not be read (it does not exist, an alias without a write index), or null
     * @param writeBlock    the block that refuses writes to the write index, as its setting is named; null when it takes
     *                      them
     * @param inactivePrimaries the write index's primary shards not active (unassigned or starting), or null
     */
    public record IndexReading(
            String name,
            String writeIndex,
            Long indexTotal,
            Integer primaryShards,
            Integer replicas,
            String problem,
            String writeBlock,
            Integer inactivePrimaries) {}

    /** A task as Connect reports it. */
    public record TaskState(int id, String state, String workerId) {}
}
