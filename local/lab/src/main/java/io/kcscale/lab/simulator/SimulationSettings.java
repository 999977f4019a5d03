package io.kcscale.lab.simulator;

/**
 * The simulated sink pipeline and how the scaler observes it. Defaults are figures measured on the
 * real local stack (docs/performance.md) and the scaler's own defaults.
 *
 * @param partitions            partitions of the sink's topic
 * @param keyCardinality        distinct record keys
 * @param keySkew               Zipf exponent of key popularity; 0 = uniform
 * @param assignor              how the sink group spreads partitions over tasks
 * @param perTaskRate           records/s one task writes when it has a backlog (its service rate)
 * @param sinkCeiling           records/s the sink (Elasticsearch) absorbs in total, shared by all tasks
 * @param maxPollRecords        records a task polls at once ({@code max.poll.records}); their offsets count only
 *                              once the whole batch is written, and a rebalance waits for the batches in flight
 * @param fetchRecordsPerPartition records one fetch brings of a partition ({@code max.partition.fetch.bytes}, 1 MiB,
 *                              over the records' size): a task's consumer drains one partition's fetched records
 *                              before the next's, and fetches a partition again only once its records are drained
 * @param rebalancePauseSeconds no task consumes for this long after every change of tasks, once the old tasks'
 *                              batches are written (what the scale action measures as the pause)
 * @param commitIntervalSeconds the worker's {@code offset.flush.interval.ms}: committed offsets (what lag is
 *                              measured from) trail the sink by up to this
 * @param sampleIntervalSeconds how often the scaler samples the pipeline
 * @param windowSeconds         the scaler's sliding window: rates are averages over it, and a rebalance
 *                              within it makes the pipeline unstable
 * @param stepMillis            the simulation's time step
 * @param initialTasks          the sink's tasks at the start
 * @param seed                  seeds the key → partition map, Poisson arrivals and the policies' clock phase
 */
public record SimulationSettings(
        int partitions,
        int keyCardinality,
        double keySkew,
        Assignor assignor,
        double perTaskRate,
        double sinkCeiling,
        int maxPollRecords,
        int fetchRecordsPerPartition,
        double rebalancePauseSeconds,
        double commitIntervalSeconds,
        double sampleIntervalSeconds,
        double windowSeconds,
        int stepMillis,
        int initialTasks,
        long seed) {

    /** One per-record Camel sink task on this machine, saturated (docs/performance.md). */
    public static final double MEASURED_PER_TASK_RATE = 2600;
    /** A 1 → 3 scale of the per-record sink on this machine (docs/performance.md). */
    public static final double MEASURED_REBALANCE_PAUSE_SECONDS = 0.3;

    public SimulationSettings {
        require(partitions >= 1, "partitions must be at least 1, got " + partitions);
        require(keyCardinality >= 1, "keyCardinality must be at least 1, got " + keyCardinality);
        require(keySkew >= 0 && Double.isFinite(keySkew), "keySkew must be 0 or more, got " + keySkew);
        require(assignor != null, "assignor must be set");
        require(
                perTaskRate > 0 && Double.isFinite(perTaskRate),
                "perTaskRate must be a positive number of records/s, got " + perTaskRate);
        require(sinkCeiling > 0, "sinkCeiling must be a positive number of records/s, got " + sinkCeiling);
        require(maxPollRecords >= 1, "maxPollRecords must be at least 1, got " + maxPollRecords);
        require(
                fetchRecordsPerPartition >= 1,
                "fetchRecordsPerPartition must be at least 1, got " + fetchRecordsPerPartition);
        require(
                rebalancePauseSeconds >= 0 && Double.isFinite(rebalancePauseSeconds),
                "rebalancePauseSeconds must be 0 or more, got " + rebalancePauseSeconds);
        require(stepMillis >= 1 && stepMillis <= 1000, "stepMillis must be between 1 and 1000, got " + stepMillis);
        require(
                commitIntervalSeconds * 1000 >= stepMillis && Double.isFinite(commitIntervalSeconds),
                "commitIntervalSeconds must be at least one step (" + stepMillis + " ms), got "
                        + commitIntervalSeconds);
        require(
                sampleIntervalSeconds * 1000 >= stepMillis && Double.isFinite(sampleIntervalSeconds),
                "sampleIntervalSeconds must be at least one step (" + stepMillis + " ms), got "
                        + sampleIntervalSeconds);
        require(
                windowSeconds >= 2 * sampleIntervalSeconds && Double.isFinite(windowSeconds),
                "windowSeconds must span at least two samples, got " + windowSeconds);
        require(initialTasks >= 1, "initialTasks must be at least 1, got " + initialTasks);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder()
                .partitions(partitions)
                .keyCardinality(keyCardinality)
                .keySkew(keySkew)
                .assignor(assignor)
                .perTaskRate(perTaskRate)
                .sinkCeiling(sinkCeiling)
                .maxPollRecords(maxPollRecords)
                .fetchRecordsPerPartition(fetchRecordsPerPartition)
                .rebalancePauseSeconds(rebalancePauseSeconds)
                .commitIntervalSeconds(commitIntervalSeconds)
                .sampleIntervalSeconds(sampleIntervalSeconds)
                .windowSeconds(windowSeconds)
                .stepMillis(stepMillis)
                .initialTasks(initialTasks)
                .seed(seed);
    }

    /**
     * Starts from the defaults: the local stack's 20 partitions keyed by its ~1,000 distinct prices, range
     * assignment, the measured per-task rate and pause, a sink that absorbs ten tasks' worth, Kafka's
     * 500 records per poll, Connect's 1 s offset flush, the scaler's 2 s samples over a 30 s window, 100 ms steps, one task.
     */
    public static final class Builder {
        private int partitions = 20;
        private int keyCardinality = 1000;
        private double keySkew;
        private Assignor assignor = Assignor.RANGE;
        private double perTaskRate = MEASURED_PER_TASK_RATE;
        private double sinkCeiling = 10 * MEASURED_PER_TASK_RATE;
        private int maxPollRecords = 500;
        /** 1 MiB over the datagen's stock records of about 250 bytes. */
        private int fetchRecordsPerPartition = 4_000;

        private double rebalancePauseSeconds = MEASURED_REBALANCE_PAUSE_SECONDS;
        private double commitIntervalSeconds = 1;
        private double sampleIntervalSeconds = 2;
        private double windowSeconds = 30;
        private int stepMillis = 100;
        private int initialTasks = 1;
        private long seed = 1;

        private Builder() {}

        public Builder partitions(int v) {
            partitions = v;
            return this;
        }

        public Builder keyCardinality(int v) {
            keyCardinality = v;
            return this;
        }

        public Builder keySkew(double v) {
            keySkew = v;
            return this;
        }

        public Builder assignor(Assignor v) {
            assignor = v;
            return this;
        }

        public Builder perTaskRate(double v) {
            perTaskRate = v;
            return this;
        }

        public Builder sinkCeiling(double v) {
            sinkCeiling = v;
            return this;
        }

        public Builder fetchRecordsPerPartition(int v) {
            fetchRecordsPerPartition = v;
            return this;
        }

        public Builder maxPollRecords(int v) {
            maxPollRecords = v;
            return this;
        }

        public Builder rebalancePauseSeconds(double v) {
            rebalancePauseSeconds = v;
            return this;
        }

        public Builder commitIntervalSeconds(double v) {
            commitIntervalSeconds = v;
            return this;
        }

        public Builder sampleIntervalSeconds(double v) {
            sampleIntervalSeconds = v;
            return this;
        }

        public Builder windowSeconds(double v) {
            windowSeconds = v;
            return this;
        }

        public Builder stepMillis(int v) {
            stepMillis = v;
            return this;
        }

        public Builder initialTasks(int v) {
            initialTasks = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        /** @throws IllegalArgumentException naming the first bad setting */
        public SimulationSettings build() {
            return new SimulationSettings(
                    partitions,
                    keyCardinality,
                    keySkew,
                    assignor,
                    perTaskRate,
                    sinkCeiling,
                    maxPollRecords,
                    fetchRecordsPerPartition,
                    rebalancePauseSeconds,
                    commitIntervalSeconds,
                    sampleIntervalSeconds,
                    windowSeconds,
                    stepMillis,
                    initialTasks,
                    seed);
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
