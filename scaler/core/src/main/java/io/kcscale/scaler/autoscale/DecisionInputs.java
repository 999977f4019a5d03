package io.kcscale.scaler.autoscale;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a decision used, by name: the observation's figures and what its rule derived from them. Each rule fills the
 * inputs it uses; an input it did not use, or one not known (a number that is not finite, a rate not measured yet), is
 * absent, never a stand-in value. Rates are records/s, times seconds, fractions 0 to 1; an input marked with a peer's
 * rule is that rule's.
 *
 * @param tasks                     the connector's tasks.max
 * @param tasksRunning              its tasks RUNNING
 * @param tasksWithPartitionsAtMost the most tasks that can get a partition
 * @param appendRate                appended to the topics, over the window
 * @param sinkRate                  consumed by the sink, over the window
 * @param perTaskRate               consumed by one running task
 * @param lag                       records not yet consumed ({@code lag.unconsumed})
 * @param allowedLag                the lag the policy allows at this rate
 * @param lagSeconds                the age of the oldest unconsumed record
 * @param targetLagSeconds          the policy's {@code targetLagSeconds}
 * @param latencySeconds            lag ÷ sink rate (Little's law)
 * @param busyFraction              the running tasks' mean busy fraction
 * @param stable                    offsets advance, no rebalance in the window, every task RUNNING
 * @param findings                  the checks' findings that say more tasks cannot help
 * @param unreachableWorkers        each worker of the connector that does not answer, with the seconds it has not
 * @param cooldownSeconds           how long after a change the rule waits
 * @param capacityFrom              what the per-task capacity was learned from
 * @param perTaskCapacity           what one task does when busy all the time
 * @param appendRateNow             the append rate a scale-up sizes by: at least the sink rate plus the lag's growth
 * @param pauseSeconds              the last measured rebalance pause, whose arrivals a scale-up adds to the backlog
 * @param busiestTaskBusy           the busiest running task's busy fraction
 * @param medianTaskBusy            the running tasks' median busy fraction
 * @param busiestTaskPartitions     the partitions the busiest task holds
 * @param idleFraction              the share of the running tasks' capacity left unused
 * @param expectedSinkRate          the sink rate a scale-up promises, checked at the next evaluation
 * @param desiredTasks              the tasks the rule sizes to, before its bounds and cap
 * @param lagThreshold              {@code keda-hpa}: the lag one replica is for
 * @param metric                    {@code keda-hpa}: the lag, capped at partitions × threshold
 * @param proposal                  {@code keda-hpa}: the replicas the metric proposes
 * @param processingRatePerTask     {@code druid-cost}: the tasks' moving average rate, per task
 * @param pollIdleRatio             {@code druid-cost}: 1 − the busy fraction
 * @param candidates                {@code druid-cost}: the task counts weighed
 * @param currentCost               {@code druid-cost}: the cost at the tasks now
 * @param optimalCost               {@code druid-cost}: the least cost
 * @param optimalTasks              {@code druid-cost}: the tasks at the least cost
 * @param threshold                 {@code kafka-pod-autoscaler}: the lag above which it adds the lag's rate
 * @param p99TopicRate              {@code kafka-pod-autoscaler}: the append rate's p99
 * @param targetRate                {@code kafka-pod-autoscaler}: the rate to consume
 * @param consumerRatePerReplica    {@code kafka-pod-autoscaler}: what one replica consumes
 * @param idealReplicas             {@code kafka-pod-autoscaler}: the replicas for the target rate, before fitting
 * @param expectedLatencySeconds    {@code responsive}: lag ÷ sink rate
 * @param maxExpectedLatencySeconds {@code responsive}: its most expected latency
 * @param rateNeeded                {@code responsive}: the rate that drains back under that latency
 * @param perReplicaRate            {@code responsive}: what one replica consumes
 * @param blockedRatio              {@code responsive}: the share of time the threads wait on the source
 * @param targetDataRate            {@code flink}: the input rate plus the lag's growth over the window
 * @param catchUpRate               {@code flink}: the lag ÷ the catch-up duration
 * @param trueProcessingRate        {@code flink}: what the tasks would process when fully busy
 * @param processingBacklog         {@code flink}: the lag exceeds its backlog threshold
 * @param recommendedTasks          {@code flink}: the parallelism its scaler recommends
 * @param expectedProcessingRate    {@code flink}: the true processing rate a scale-up promises
 * @param highestRecommendation     {@code flink}: the highest recommendation within the scale-down interval
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DecisionInputs(
        Integer tasks,
        Integer tasksRunning,
        Integer tasksWithPartitionsAtMost,
        Double appendRate,
        Double sinkRate,
        Double perTaskRate,
        Long lag,
        Double allowedLag,
        Double lagSeconds,
        Double targetLagSeconds,
        Double latencySeconds,
        Double busyFraction,
        Boolean stable,
        List<String> findings,
        Map<String, Long> unreachableWorkers,
        Double cooldownSeconds,
        CapacitySource capacityFrom,
        Double perTaskCapacity,
        Double appendRateNow,
        Double pauseSeconds,
        Double busiestTaskBusy,
        Double medianTaskBusy,
        Integer busiestTaskPartitions,
        Double idleFraction,
        Double expectedSinkRate,
        Integer desiredTasks,
        Long lagThreshold,
        Long metric,
        Integer proposal,
        Double processingRatePerTask,
        Double pollIdleRatio,
        Integer candidates,
        Double currentCost,
        Double optimalCost,
        Integer optimalTasks,
        Long threshold,
        Double p99TopicRate,
        Double targetRate,
        Double consumerRatePerReplica,
        Integer idealReplicas,
        Double expectedLatencySeconds,
        Double maxExpectedLatencySeconds,
        Double rateNeeded,
        Double perReplicaRate,
        Double blockedRatio,
        Double targetDataRate,
        Double catchUpRate,
        Double trueProcessingRate,
        Boolean processingBacklog,
        Integer recommendedTasks,
        Double expectedProcessingRate,
        Integer highestRecommendation) {

    /** A decision that used no input (a hold before any rule saw the connector). */
    public static final DecisionInputs NONE = new Builder().build();

    /** Where the per-task capacity came from; named in JSON as the reason says it. */
    public enum CapacitySource {
        /** Records/s ÷ busy fraction: the true processing rate. */
        BUSY_TIME,
        /** What a task consumed while a backlog kept it saturated. */
        BACKLOG;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    public DecisionInputs {
        appendRate = known(appendRate);
        sinkRate = known(sinkRate);
        perTaskRate = known(perTaskRate);
        allowedLag = known(allowedLag);
        lagSeconds = known(lagSeconds);
        targetLagSeconds = known(targetLagSeconds);
        latencySeconds = known(latencySeconds);
        busyFraction = known(busyFraction);
        findings = findings == null ? null : List.copyOf(findings);
        unreachableWorkers =
                unreachableWorkers == null ? null : Collections.unmodifiableMap(new TreeMap<>(unreachableWorkers));
        cooldownSeconds = known(cooldownSeconds);
        perTaskCapacity = known(perTaskCapacity);
        appendRateNow = known(appendRateNow);
        pauseSeconds = known(pauseSeconds);
        busiestTaskBusy = known(busiestTaskBusy);
        medianTaskBusy = known(medianTaskBusy);
        idleFraction = known(idleFraction);
        expectedSinkRate = known(expectedSinkRate);
        processingRatePerTask = known(processingRatePerTask);
        pollIdleRatio = known(pollIdleRatio);
        currentCost = known(currentCost);
        optimalCost = known(optimalCost);
        p99TopicRate = known(p99TopicRate);
        targetRate = known(targetRate);
        consumerRatePerReplica = known(consumerRatePerReplica);
        expectedLatencySeconds = known(expectedLatencySeconds);
        maxExpectedLatencySeconds = known(maxExpectedLatencySeconds);
        rateNeeded = known(rateNeeded);
        perReplicaRate = known(perReplicaRate);
        blockedRatio = known(blockedRatio);
        targetDataRate = known(targetDataRate);
        catchUpRate = known(catchUpRate);
        trueProcessingRate = known(trueProcessingRate);
        expectedProcessingRate = known(expectedProcessingRate);
    }

    /** JSON has no NaN or infinity, and a rule computes them for what it cannot know (a rate over no time): absent. */
    private static Double known(Double value) {
        return value == null || !Double.isFinite(value) ? null : value;
    }

    /** The inputs a rule fills as it goes, each path of its decision taking what it has filled by then. */
    public static final class Builder {
        private Integer tasks;
        private Integer tasksRunning;
        private Integer tasksWithPartitionsAtMost;
        private Double appendRate;
        private Double sinkRate;
        private Double perTaskRate;
        private Long lag;
        private Double allowedLag;
        private Double lagSeconds;
        private Double targetLagSeconds;
        private Double latencySeconds;
        private Double busyFraction;
        private Boolean stable;
        private List<String> findings;
        private Map<String, Long> unreachableWorkers;
        private Double cooldownSeconds;
        private CapacitySource capacityFrom;
        private Double perTaskCapacity;
        private Double appendRateNow;
        private Double pauseSeconds;
        private Double busiestTaskBusy;
        private Double medianTaskBusy;
        private Integer busiestTaskPartitions;
        private Double idleFraction;
        private Double expectedSinkRate;
        private Integer desiredTasks;
        private Long lagThreshold;
        private Long metric;
        private Integer proposal;
        private Double processingRatePerTask;
        private Double pollIdleRatio;
        private Integer candidates;
        private Double currentCost;
        private Double optimalCost;
        private Integer optimalTasks;
        private Long threshold;
        private Double p99TopicRate;
        private Double targetRate;
        private Double consumerRatePerReplica;
        private Integer idealReplicas;
        private Double expectedLatencySeconds;
        private Double maxExpectedLatencySeconds;
        private Double rateNeeded;
        private Double perReplicaRate;
        private Double blockedRatio;
        private Double targetDataRate;
        private Double catchUpRate;
        private Double trueProcessingRate;
        private Boolean processingBacklog;
        private Integer recommendedTasks;
        private Double expectedProcessingRate;
        private Integer highestRecommendation;

        public DecisionInputs build() {
            return new DecisionInputs(
                    tasks,
                    tasksRunning,
                    tasksWithPartitionsAtMost,
                    appendRate,
                    sinkRate,
                    perTaskRate,
                    lag,
                    allowedLag,
                    lagSeconds,
                    targetLagSeconds,
                    latencySeconds,
                    busyFraction,
                    stable,
                    findings,
                    unreachableWorkers,
                    cooldownSeconds,
                    capacityFrom,
                    perTaskCapacity,
                    appendRateNow,
                    pauseSeconds,
                    busiestTaskBusy,
                    medianTaskBusy,
                    busiestTaskPartitions,
                    idleFraction,
                    expectedSinkRate,
                    desiredTasks,
                    lagThreshold,
                    metric,
                    proposal,
                    processingRatePerTask,
                    pollIdleRatio,
                    candidates,
                    currentCost,
                    optimalCost,
                    optimalTasks,
                    threshold,
                    p99TopicRate,
                    targetRate,
                    consumerRatePerReplica,
                    idealReplicas,
                    expectedLatencySeconds,
                    maxExpectedLatencySeconds,
                    rateNeeded,
                    perReplicaRate,
                    blockedRatio,
                    targetDataRate,
                    catchUpRate,
                    trueProcessingRate,
                    processingBacklog,
                    recommendedTasks,
                    expectedProcessingRate,
                    highestRecommendation);
        }

        public Builder tasks(int v) {
            tasks = v;
            return this;
        }

        public Builder tasksRunning(int v) {
            tasksRunning = v;
            return this;
        }

        public Builder tasksWithPartitionsAtMost(int v) {
            tasksWithPartitionsAtMost = v;
            return this;
        }

        public Builder appendRate(double v) {
            appendRate = v;
            return this;
        }

        public Builder sinkRate(double v) {
            sinkRate = v;
            return this;
        }

        public Builder perTaskRate(double v) {
            perTaskRate = v;
            return this;
        }

        public Builder lag(long v) {
            lag = v;
            return this;
        }

        public Builder allowedLag(double v) {
            allowedLag = v;
            return this;
        }

        public Builder lagSeconds(Double v) {
            lagSeconds = v;
            return this;
        }

        public Builder targetLagSeconds(Double v) {
            targetLagSeconds = v;
            return this;
        }

        public Builder latencySeconds(double v) {
            latencySeconds = v;
            return this;
        }

        public Builder busyFraction(Double v) {
            busyFraction = v;
            return this;
        }

        public Builder stable(boolean v) {
            stable = v;
            return this;
        }

        public Builder findings(List<String> v) {
            findings = v;
            return this;
        }

        public Builder unreachableWorkers(Map<String, Long> v) {
            unreachableWorkers = v;
            return this;
        }

        public Builder cooldownSeconds(double v) {
            cooldownSeconds = v;
            return this;
        }

        public Builder capacityFrom(CapacitySource v) {
            capacityFrom = v;
            return this;
        }

        public Builder perTaskCapacity(double v) {
            perTaskCapacity = v;
            return this;
        }

        public Builder appendRateNow(double v) {
            appendRateNow = v;
            return this;
        }

        public Builder pauseSeconds(double v) {
            pauseSeconds = v;
            return this;
        }

        public Builder busiestTaskBusy(double v) {
            busiestTaskBusy = v;
            return this;
        }

        public Builder medianTaskBusy(double v) {
            medianTaskBusy = v;
            return this;
        }

        public Builder busiestTaskPartitions(int v) {
            busiestTaskPartitions = v;
            return this;
        }

        public Builder idleFraction(double v) {
            idleFraction = v;
            return this;
        }

        public Builder expectedSinkRate(double v) {
            expectedSinkRate = v;
            return this;
        }

        public Builder desiredTasks(int v) {
            desiredTasks = v;
            return this;
        }

        public Builder lagThreshold(long v) {
            lagThreshold = v;
            return this;
        }

        public Builder metric(long v) {
            metric = v;
            return this;
        }

        public Builder proposal(int v) {
            proposal = v;
            return this;
        }

        public Builder processingRatePerTask(double v) {
            processingRatePerTask = v;
            return this;
        }

        public Builder pollIdleRatio(Double v) {
            pollIdleRatio = v;
            return this;
        }

        public Builder candidates(int v) {
            candidates = v;
            return this;
        }

        public Builder currentCost(double v) {
            currentCost = v;
            return this;
        }

        public Builder optimalCost(double v) {
            optimalCost = v;
            return this;
        }

        public Builder optimalTasks(int v) {
            optimalTasks = v;
            return this;
        }

        public Builder threshold(long v) {
            threshold = v;
            return this;
        }

        public Builder p99TopicRate(double v) {
            p99TopicRate = v;
            return this;
        }

        public Builder targetRate(double v) {
            targetRate = v;
            return this;
        }

        public Builder consumerRatePerReplica(double v) {
            consumerRatePerReplica = v;
            return this;
        }

        public Builder idealReplicas(int v) {
            idealReplicas = v;
            return this;
        }

        public Builder expectedLatencySeconds(double v) {
            expectedLatencySeconds = v;
            return this;
        }

        public Builder maxExpectedLatencySeconds(double v) {
            maxExpectedLatencySeconds = v;
            return this;
        }

        public Builder rateNeeded(double v) {
            rateNeeded = v;
            return this;
        }

        public Builder perReplicaRate(double v) {
            perReplicaRate = v;
            return this;
        }

        public Builder blockedRatio(double v) {
            blockedRatio = v;
            return this;
        }

        public Builder targetDataRate(double v) {
            targetDataRate = v;
            return this;
        }

        public Builder catchUpRate(double v) {
            catchUpRate = v;
            return this;
        }

        public Builder trueProcessingRate(double v) {
            trueProcessingRate = v;
            return this;
        }

        public Builder processingBacklog(boolean v) {
            processingBacklog = v;
            return this;
        }

        public Builder recommendedTasks(int v) {
            recommendedTasks = v;
            return this;
        }

        public Builder expectedProcessingRate(double v) {
            expectedProcessingRate = v;
            return this;
        }

        public Builder highestRecommendation(int v) {
            highestRecommendation = v;
            return this;
        }
    }
}
