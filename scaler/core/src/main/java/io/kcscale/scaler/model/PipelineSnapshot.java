package io.kcscale.scaler.model;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the scaler knows of one sink pipeline over its sliding window: the body of
 * {@code GET /api/v1/connectors/{name}}. Rates are per second over the window; a figure that
 * cannot be known (a system did not answer, too few samples) is null, and {@code reasons} says why.
 * {@code unreachableWorkers}: each worker Connect places the connector or its tasks on that does not answer the
 * scaler's probe, with the seconds it has not; its tasks are {@link Task#WORKER_UNREACHABLE}.
 *
 * <p>Every partition reading is keyed by topic and partition: {@code partitionsPerTopic}, a task's
 * {@code partitionsByTopic}, {@code lag.perTopic} and {@code rates.appendPerTopic}. For a sink of one topic the
 * readings keyed by partition number alone ({@code perPartition}, {@code appendPerPartition}, a task's
 * {@code partitions}) stay as they were; for several topics they are null, since partition 0 of one topic is
 * not partition 0 of another. {@code partitions} counts the partitions of all topics; {@code assignor} is the one
 * the sink group uses (null when it has no members). {@code commitIntervalSeconds}: how often the sink's tasks commit,
 * the median of the intervals the scaler saw (Connect's {@code offset.flush.interval.ms}, or longer for a task whose
 * {@code put} takes longer); null before a task committed twice. {@code capacity}: what one task can do, from the running
 * tasks' busy time over the window as their workers publish it; {@code busyFraction}: the running tasks' mean busy
 * fraction now, null when any of theirs is unknown.
 */
public record PipelineSnapshot(
        String name,
        List<String> topics,
        Integer tasksMax,
        Integer partitions,
        Map<String, Integer> partitionsPerTopic,
        String assignor,
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
        Double commitIntervalSeconds,
        Capacity capacity,
        Double busyFraction,
        double windowSeconds,
        long observedAtMillis) {

    /** A snapshot without the workers' metrics: capacity and busy time unknown. */
    public PipelineSnapshot(
            String name,
            List<String> topics,
            Integer tasksMax,
            Integer partitions,
            Map<String, Integer> partitionsPerTopic,
            String assignor,
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
            Double commitIntervalSeconds,
            double windowSeconds,
            long observedAtMillis) {
        this(
                name,
                topics,
                tasksMax,
                partitions,
                partitionsPerTopic,
                assignor,
                tasks,
                lag,
                rates,
                latencySeconds,
                stable,
                reasons,
                elasticsearch,
                deadLetters,
                degraded,
                unreachable,
                unreachableWorkers,
                commitIntervalSeconds,
                Capacity.unknown(TaskCapacities.NOT_READ),
                null,
                windowSeconds,
                observedAtMillis);
    }

    /** The sink reads more than one topic: readings keyed by partition number alone would mix them. */
    public boolean severalTopics() {
        return topics.size() > 1;
    }

    /** One topic's readings by partition, as JSON keeps them for a sink of one topic; null for a sink of several. */
    private static <V> Map<Integer, V> onlyTopic(Map<String, Map<Integer, V>> byTopic, boolean severalTopics) {
        if (severalTopics) {
            return null;
        }
        return byTopic.isEmpty() ? Map.of() : byTopic.values().iterator().next();
    }

    private static <V> Map<TopicPartition, V> flat(Map<String, Map<Integer, V>> byTopic) {
        Map<TopicPartition, V> flat = new TreeMap<>();
        if (byTopic != null) {
            byTopic.forEach((topic, perPartition) -> flat.putAll(TopicPartition.onTopic(topic, perPartition)));
        }
        return flat;
    }

    /**
     * A sink task: its state, worker, the partitions it consumes and its sink rate. The state is Connect's, except
     * {@link #WORKER_UNREACHABLE}: Connect keeps reporting the last state a dead worker wrote (RUNNING) until it
     * reassigns the task.
     *
     * @param partitions            its partitions of the sink's one topic; null for a sink of several
     * @param partitionsByTopic     its partitions of each topic it consumes from
     * @param recordsPerSecond      what it consumed between two of its commits; null while unknown
     * @param commitIntervalSeconds how often it commits, the median of the intervals seen; null before it committed twice
     * @param secondsSinceCommit    since its last commit the scaler saw; null before one
     * @param busyFraction          the share of its time spent in {@code put()} (writing, waiting on the sink included),
     *                              as its worker publishes it now; null when unknown
     * @param capacity              what it can do: records/s over busy time, over the window
     */
    public record Task(
            int id,
            String state,
            String workerId,
            List<Integer> partitions,
            Map<String, List<Integer>> partitionsByTopic,
            Double recordsPerSecond,
            Double commitIntervalSeconds,
            Double secondsSinceCommit,
            Double busyFraction,
            Capacity capacity) {

        /** The state of a task whose worker does not answer, whatever Connect still reports. */
        public static final String WORKER_UNREACHABLE = "WORKER_UNREACHABLE";

        /** A task whose busy time is not read. */
        public Task(
                int id,
                String state,
                String workerId,
                List<Integer> partitions,
                Map<String, List<Integer>> partitionsByTopic,
                Double recordsPerSecond,
                Double commitIntervalSeconds,
                Double secondsSinceCommit) {
            this(
                    id,
                    state,
                    workerId,
                    partitions,
                    partitionsByTopic,
                    recordsPerSecond,
                    commitIntervalSeconds,
                    secondsSinceCommit,
                    null,
                    Capacity.unknown(TaskCapacities.NOT_READ));
        }

        /** A task of a sink, its partitions given per topic, its busy time not read. */
        public static Task of(
                int id,
                String state,
                String workerId,
                Map<String, List<Integer>> partitionsByTopic,
                Double recordsPerSecond,
                boolean severalTopics,
                Double commitIntervalSeconds,
                Double secondsSinceCommit) {
            return of(
                    id,
                    state,
                    workerId,
                    partitionsByTopic,
                    recordsPerSecond,
                    severalTopics,
                    commitIntervalSeconds,
                    secondsSinceCommit,
                    null,
                    Capacity.unknown(TaskCapacities.NOT_READ));
        }

        /** A task of a sink, its partitions given per topic. */
        public static Task of(
                int id,
                String state,
                String workerId,
                Map<String, List<Integer>> partitionsByTopic,
                Double recordsPerSecond,
                boolean severalTopics,
                Double commitIntervalSeconds,
                Double secondsSinceCommit,
                Double busyFraction,
                Capacity capacity) {
            List<Integer> ofOneTopic = severalTopics
                    ? null
                    : partitionsByTopic.values().stream().findFirst().orElse(List.of());
            return new Task(
                    id,
                    state,
                    workerId,
                    ofOneTopic,
                    partitionsByTopic,
                    recordsPerSecond,
                    commitIntervalSeconds,
                    secondsSinceCommit,
                    busyFraction,
                    capacity);
        }

        /** Its partitions, each named by topic and partition. */
        public List<TopicPartition> topicPartitions() {
            return partitionsByTopic.entrySet().stream()
                    .flatMap(t -> t.getValue().stream().map(p -> new TopicPartition(t.getKey(), p)))
                    .toList();
        }
    }

    /**
     * What one task can do: the records/s it read over the share of its time it was busy (Flink's "true processing
     * rate"), each sample of the window a reading, so that a task at a third of its limit tells that limit. Unknown,
     * with the reason, rather than guessed: without its worker's metrics, or while it is near idle (a busy time of a
     * few percent is too noisy to scale up from).
     *
     * @param recordsPerSecond the median of the samples; null when unknown
     * @param low              the samples' 5th percentile: with {@code high}, the central {@value TaskCapacities#LEVEL_PERCENT}%
     *                         of them; null when unknown
     * @param high             their 95th percentile; null when unknown
     * @param samples          readings over the window that went into it (of every running task, for the sink's)
     * @param busyFrom         how the busy fraction was read: {@code put-time} (the share of its time in {@code put()})
     *                         or, where that is not published, {@code poll-idle} (1 − its consumer's poll-idle ratio);
     *                         both where tasks differ; null when unknown
     * @param source           where the readings come from: {@code exporter} or {@code prometheus}; null when unknown
     * @param rising           the newer half of a task's readings lies more than
     *                         {@value TaskCapacities#RISING_PERCENT}% above the older half: a task that started
     *                         recently still speeds up as its JVM compiles its path, so the figure is low and will rise
     *                         (for about three minutes after a start, measured behind the lab's proxy); false when
     *                         unknown
     * @param unknown          why it is unknown, or null
     */
    public record Capacity(
            Double recordsPerSecond,
            Double low,
            Double high,
            int samples,
            String busyFrom,
            String source,
            boolean rising,
            String unknown) {

        public static Capacity unknown(String why) {
            return new Capacity(null, null, null, 0, null, null, false, why);
        }

        public boolean known() {
            return recordsPerSecond != null;
        }
    }

    /**
     * Records not yet committed by the sink group, in total and per partition (what Kafka's tools call the group's lag),
     * how long the oldest of them has waited, and what of them the tasks have not consumed yet. Committed offsets move
     * once per commit interval, so between two commits the lag includes what the tasks consumed since the last one;
     * {@code unconsumed} and {@code unconsumedSeconds} leave that out, which is what targets are held against.
     *
     * @param perPartition by partition of the sink's one topic; null for a sink of several
     * @param perTopic     by topic, then partition
     * @param seconds      the age of the oldest unconsumed record over all partitions, or null when unknown
     * @param lowerBound   {@code seconds} is a lower bound: a partition's oldest unconsumed record was appended before the
     *                     scaler's end-offset history begins; null when {@code seconds} is
     * @param verdict      the worst partition's verdict, or null when none is known yet
     * @param partitions   each partition's lag, age and verdict
     * @param unconsumed   records the tasks have not consumed yet: the lag less what each task consumed since its last
     *                     commit at its rate (at most one commit interval's worth); null when the lag is unknown
     * @param unconsumedSeconds the age of the oldest of them, the most over all partitions; null when unknown
     * @param unconsumedFrom    what {@code unconsumed} is read from: {@code positions} (the tasks' consumers' positions,
     *                          where the workers publish every partition's) or {@code commits} (the lag less what each
     *                          task consumed since its last commit at its rate); null when the lag is unknown
     */
    public record Lag(
            Long total,
            Map<Integer, Long> perPartition,
            Map<String, Map<Integer, Long>> perTopic,
            Double seconds,
            Boolean lowerBound,
            LagVerdict verdict,
            List<PartitionLag> partitions,
            Long unconsumed,
            Double unconsumedSeconds,
            String unconsumedFrom) {

        /** Unconsumed records read from the tasks' consumers' positions. */
        public static final String FROM_POSITIONS = "positions";
        /** Unconsumed records estimated from the sink group's commits and the tasks' rates. */
        public static final String FROM_COMMITS = "commits";

        /** A lag whose unconsumed records, if known, were estimated from the commits. */
        public Lag(
                Long total,
                Map<Integer, Long> perPartition,
                Map<String, Map<Integer, Long>> perTopic,
                Double seconds,
                Boolean lowerBound,
                LagVerdict verdict,
                List<PartitionLag> partitions,
                Long unconsumed,
                Double unconsumedSeconds) {
            this(
                    total,
                    perPartition,
                    perTopic,
                    seconds,
                    lowerBound,
                    verdict,
                    partitions,
                    unconsumed,
                    unconsumedSeconds,
                    unconsumed == null ? null : FROM_COMMITS);
        }

        /**
         * The lag of each partition (null when unknown), with each partition's age and verdict.
         *
         * @param unconsumedFrom {@link #FROM_POSITIONS} or {@link #FROM_COMMITS}: what the partitions' unconsumed
         *                       records were read from
         */
        public static Lag of(
                Map<TopicPartition, Long> lag,
                List<PartitionLag> partitions,
                boolean severalTopics,
                String unconsumedFrom) {
            if (lag == null) {
                return new Lag(null, null, null, null, null, null, List.of(), null, null, null);
            }
            Map<String, Map<Integer, Long>> perTopic = TopicPartition.byTopic(lag);
            Double seconds = partitions.stream()
                    .map(PartitionLag::seconds)
                    .filter(s -> s != null)
                    .max(Double::compare)
                    .orElse(null);
            Double unconsumedSeconds = partitions.stream()
                    .map(PartitionLag::unconsumedSeconds)
                    .filter(s -> s != null)
                    .max(Double::compare)
                    .orElse(null);
            Boolean lowerBound = seconds == null ? null : partitions.stream().anyMatch(PartitionLag::lowerBound);
            return new Lag(
                    lag.values().stream().mapToLong(Long::longValue).sum(),
                    onlyTopic(perTopic, severalTopics),
                    perTopic,
                    seconds,
                    lowerBound,
                    LagVerdict.worst(
                            partitions.stream().map(PartitionLag::verdict).toList()),
                    partitions,
                    partitions.isEmpty()
                            ? lag.values().stream().mapToLong(Long::longValue).sum()
                            : partitions.stream()
                                    .mapToLong(PartitionLag::unconsumed)
                                    .sum(),
                    unconsumedSeconds,
                    unconsumedFrom);
        }

        /** The lag of each partition; empty when unknown. */
        public Map<TopicPartition, Long> perTopicPartition() {
            return flat(perTopic);
        }
    }

    /**
     * One partition's lag.
     *
     * @param records    records the sink group has not committed
     * @param seconds    how long the oldest of them has waited, or null when unknown
     * @param lowerBound it was appended before the scaler's end-offset history begins: {@code seconds} is a lower bound
     * @param verdict    where its lag is heading, or null while the window cannot tell
     * @param unconsumed records its task has not consumed yet (see {@link Lag#unconsumed})
     * @param unconsumedSeconds how long the oldest of them has waited, or null when unknown
     */
    public record PartitionLag(
            String topic,
            int partition,
            long records,
            Double seconds,
            boolean lowerBound,
            LagVerdict verdict,
            long unconsumed,
            Double unconsumedSeconds) {}

    /**
     * @param appendPerSecond records appended to the topic
     * @param sinkPerSecond   records the sink group committed
     * @param indexPerSecond  index operations Elasticsearch counted on the sink's indexes (their write indexes)
     * @param appendPerPartition records appended to each partition of the sink's one topic: 0 marks an empty one (say, too
     *                           few distinct keys); null for a sink of several
     * @param appendPerTopic     records appended to each partition, by topic, then partition
     */
    public record Rates(
            Double appendPerSecond,
            Double sinkPerSecond,
            Double indexPerSecond,
            Map<Integer, Double> appendPerPartition,
            Map<String, Map<Integer, Double>> appendPerTopic) {

        /** The rates, the append rate given per topic and partition (null when unknown). */
        public static Rates of(
                Double appendPerSecond,
                Double sinkPerSecond,
                Double indexPerSecond,
                Map<TopicPartition, Double> appendPerTopicPartition,
                boolean severalTopics) {
            Map<String, Map<Integer, Double>> perTopic =
                    appendPerTopicPartition == null ? null : TopicPartition.byTopic(appendPerTopicPartition);
            return new Rates(
                    appendPerSecond,
                    sinkPerSecond,
                    indexPerSecond,
                    perTopic == null ? null : onlyTopic(perTopic, severalTopics),
                    perTopic);
        }

        /** The append rate of each partition; empty when unknown. */
        public Map<TopicPartition, Double> appendPerTopicPartition() {
            return flat(appendPerTopic);
        }
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
     * The indexes the sink writes to as Elasticsearch describes them, and whether its nodes push back on writes. For a sink
     * of one index, {@code index}, {@code primaryShards} and {@code replicas} are that index's (its write index's shards);
     * for a sink of several they are null and {@code indexes} holds each.
     *
     * @param writeRejectionsPerSecond write requests the nodes' thread pools rejected, over the window
     * @param writeQueue               write requests queued at every reading of the window (the least of them)
     * @param indexes                  each index the sink writes to, resolved to its write index; empty when it writes to
     *                                 none the scaler knows
     */
    public record Elasticsearch(
            String index,
            Integer primaryShards,
            Integer replicas,
            Integer dataNodes,
            Double writeRejectionsPerSecond,
            Integer writeQueue,
            List<Index> indexes) {

        /** A sink of one plain index (or of none when {@code index} is null). */
        public Elasticsearch(
                String index,
                Integer primaryShards,
                Integer replicas,
                Integer dataNodes,
                Double writeRejectionsPerSecond,
                Integer writeQueue) {
            this(
                    index,
                    primaryShards,
                    replicas,
                    dataNodes,
                    writeRejectionsPerSecond,
                    writeQueue,
                    index == null
                            ? List.of()
                            : List.of(new Index(index, index, primaryShards, replicas, null, null, null, null)));
        }

        /** The cluster's readings with each index the sink writes to. */
        public static Elasticsearch of(
                List<Index> indexes, Integer dataNodes, Double writeRejectionsPerSecond, Integer writeQueue) {
            Index only = indexes.size() == 1 ? indexes.get(0) : null;
            return new Elasticsearch(
                    only == null ? null : only.name(),
                    only == null ? null : only.primaryShards(),
                    only == null ? null : only.replicas(),
                    dataNodes,
                    writeRejectionsPerSecond,
                    writeQueue,
                    List.copyOf(indexes));
        }

        /** Elasticsearch rejects or queues writes: the sink, not the connector, is the bottleneck. */
        public boolean rejectingWrites() {
            return (writeRejectionsPerSecond != null && writeRejectionsPerSecond > 0)
                    || (writeQueue != null && writeQueue > 0);
        }
    }

    /**
     * One index the sink writes to.
     *
     * @param name           as the sink's config (or the operator) names it: an index, an alias or a data stream
     * @param writeIndex     the index writes land in (the alias's write index, the data stream's newest backing index, or
     *                       {@code name}); null when it could not be resolved
     * @param primaryShards  the write index's primary shards, or null
     * @param replicas       the write index's replicas per primary, or null
     * @param indexPerSecond index operations on the write index over the window (since the write index changed, after a
     *                       rollover), or null
     * @param problem        why it could not be read, or null
     * @param writeBlock     the block that refuses writes to the write index, as its setting is named
     *                       ({@code index.blocks.read_only_allow_delete}, ...); null when it takes writes
     * @param inactivePrimaries the write index's primary shards not active (unassigned or starting), or null
     */
    public record Index(
            String name,
            String writeIndex,
            Integer primaryShards,
            Integer replicas,
            Double indexPerSecond,
            String problem,
            String writeBlock,
            Integer inactivePrimaries) {}
}
