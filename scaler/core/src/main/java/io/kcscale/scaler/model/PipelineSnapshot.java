package io.kcscale.scaler.model;

import java.util.List;
import java.util.Map;

/**
 * What the scaler knows of one sink pipeline over its sliding window: the body of
 * {@code GET /api/v1/connectors/{name}}. Rates are per second over the window; a figure that
 * cannot be known (a system did not answer, too few samples) is null, and {@code reasons} says why.
 * {@code unreachableWorkers}: each worker Connect places the connector or its tasks on that does not answer the
 * scaler's probe, with the seconds it has not; its tasks are {@link Task#WORKER_UNREACHABLE}.
 */
public record PipelineSnapshot(
        String name,
        List<String> topics,
        Integer tasksMax,
        Integer partitions,
        List<Task> tasks,
        Lag lag,
        Rates rates,
        Double latencySeconds,
        boolean stable,
        List<String> reasons,
        Elasticsearch elasticsearch,
        DeadLetters deadLetters,
        boolean degraded,
        List<String> unreachable,
        Map<String, Long> unreachableWorkers,
        double windowSeconds,
        long observedAtMillis) {

    /** A snapshot of a sink without a dead-letter topic. */
    public PipelineSnapshot(String name, List<String> topics, Integer tasksMax, Integer partitions, List<Task> tasks, Lag lag,
                            Rates rates, Double latencySeconds, boolean stable, List<String> reasons, Elasticsearch elasticsearch,
                            boolean degraded, List<String> unreachable, Map<String, Long> unreachableWorkers, double windowSeconds,
                            long observedAtMillis) {
        this(name, topics, tasksMax, partitions, tasks, lag, rates, latencySeconds, stable, reasons, elasticsearch, null, degraded,
                unreachable, unreachableWorkers, windowSeconds, observedAtMillis);
    }

    /**
     * A sink task: its state, worker, the partitions it consumes and its sink rate. The state is Connect's, except
     * {@link #WORKER_UNREACHABLE}: Connect keeps reporting the last state a dead worker wrote (RUNNING) until it
     * reassigns the task.
     */
    public record Task(int id, String state, String workerId, List<Integer> partitions, Double recordsPerSecond) {

        /** The state of a task whose worker does not answer, whatever Connect still reports. */
        public static final String WORKER_UNREACHABLE = "WORKER_UNREACHABLE";
    }

    /** Records not yet committed by the sink group, in total and per partition. */
    public record Lag(Long total, Map<Integer, Long> perPartition) {
    }

    /**
     * @param appendPerSecond records appended to the topic
     * @param sinkPerSecond   records the sink group committed
     * @param indexPerSecond  index operations Elasticsearch counted on the sink's index
     * @param appendPerPartition records appended to each partition: 0 marks an empty one (say, too few distinct keys)
     */
    public record Rates(Double appendPerSecond, Double sinkPerSecond, Double indexPerSecond,
                        Map<Integer, Double> appendPerPartition) {
    }

    /**
     * The records the sink gave up on and Connect wrote to its dead-letter topic: each is out of the index, so a sink
     * that dead-letters is not stable whatever its lag.
     *
     * @param topic           {@code errors.deadletterqueue.topic.name}
     * @param appendPerSecond records appended to it over the window, or null until two samples read it
     * @param total           records it holds, or null when it could not be read
     * @param latestReason    why its newest record was dead-lettered, as Connect's headers say, or null
     */
    public record DeadLetters(String topic, Double appendPerSecond, Long total, String latestReason) {

        public boolean appending() {
            return appendPerSecond != null && appendPerSecond > 0;
        }
    }

    /**
     * The sink's target index as Elasticsearch describes it, and whether its nodes push back on writes.
     *
     * @param writeRejectionsPerSecond write requests the nodes' thread pools rejected, over the window
     * @param writeQueue               write requests queued now
     */
    public record Elasticsearch(String index, Integer primaryShards, Integer replicas, Integer dataNodes,
                                Double writeRejectionsPerSecond, Integer writeQueue) {

        /** Elasticsearch rejects or queues writes: the sink, not the connector, is the bottleneck. */
        public boolean rejectingWrites() {
            return (writeRejectionsPerSecond != null && writeRejectionsPerSecond > 0) || (writeQueue != null && writeQueue > 0);
        }
    }
}
