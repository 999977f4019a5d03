package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * {@code kafka-pod-autoscaler}: Brandwatch's kafka-pod-autoscaler v0.15.2 with its {@code kafka} trigger, as it
 * ships ({@code src/main/java/com/brandwatch/kafka_pod_autoscaler/}).
 * <ul>
 *   <li>{@code triggers/KafkaLagTriggerProcessor.java}: the target rate is the topic's p99 append rate over the last
 *       90 reconciles (at least 3); only while the lag is above {@code threshold} does lag ÷ {@code sla} (10 minutes
 *       by default) join it. The consumers' rate is {@code consumerMessagesPerSec} × replicas when the operator gave
 *       it, else the p99 per-replica consumption over the last 360 reconciles × replicas
 *       ({@code triggers/kafka/TopicConsumerStats.java}).</li>
 *   <li>{@code triggers/TriggerResult.java}: replicas = ceil(current × target rate ÷ consumer rate); without a
 *       consumer rate, the current count.</li>
 *   <li>{@code KafkaPodAutoscalerReconciler.java}: every 10 s; a count is one that divides the partitions, and a change
 *       moves at most {@code maxScaleIncrements} (1) steps along them ({@code fitReplicaCount}); no change within
 *       {@code cooloffSeconds} (300) of the last scale or of the last time the workload was not ready (here: a task not
 *       RUNNING).</li>
 * </ul>
 * Departures: the p99s are of the scaler's windowed rates, one sample per reconcile, where the peer differences the
 * offsets it reads itself (the consumers' only once every partition's commit moved).
 */
public final class KafkaPodAutoscalerRule implements ScalingRule {

    public static final String NAME = "kafka-pod-autoscaler";
    static final long RECONCILE_MILLIS = 10_000;
    static final long COOL_OFF_MILLIS = 300_000;
    static final long SLA_MILLIS = 600_000;
    static final int TOPIC_RATE_WINDOW = 90;
    static final int CONSUMER_RATE_WINDOW = 360;
    static final int MINIMUM_MEASUREMENTS = 3;
    static final double PERCENTILE = 99;
    static final int MAX_SCALE_INCREMENTS = 1;
    private static final String TOPIC_RATES = "kafka-pod-autoscaler.topic-rates";
    private static final String CONSUMER_RATES = "kafka-pod-autoscaler.consumer-rates";
    private static final String NOT_READY = "kafka-pod-autoscaler.not-ready";

    private final long threshold;
    private final Double consumerMessagesPerSec;
    private final TaskBounds bounds;
    private final long reconcileMillis;
    private final long coolOffMillis;
    private final double slaSeconds;

    /**
     * @param threshold              the trigger's {@code threshold}: the lag above which it drains within the SLA
     * @param consumerMessagesPerSec one replica's rate as the operator measured it, or null to learn it
     */
    KafkaPodAutoscalerRule(long threshold, Double consumerMessagesPerSec, TaskBounds bounds, double timeScale) {
        this.threshold = threshold;
        this.consumerMessagesPerSec = consumerMessagesPerSec;
        this.bounds = bounds;
        this.reconcileMillis = Verdicts.scaled(RECONCILE_MILLIS, timeScale);
        this.coolOffMillis = Verdicts.scaled(COOL_OFF_MILLIS, timeScale);
        this.slaSeconds = SLA_MILLIS * timeScale / 1000.0;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long evaluationIntervalMillis() {
        return reconcileMillis;
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        DecisionInputs.Builder in = new DecisionInputs.Builder();
        in.lag(o.lag());
        in.threshold(threshold);
        if (o.tasksRunning() < o.tasks()) {
            m.remember(NOT_READY, o.atMillis(), 1, coolOffMillis);
            return Verdicts.hold(o, "not-ready", "not every task is RUNNING: skipping the scale", in);
        }
        m.remember(TOPIC_RATES, o.atMillis(), o.appendRate(), TOPIC_RATE_WINDOW * reconcileMillis);
        if (o.sinkRate() > 0 && o.tasks() > 0) {
            m.remember(CONSUMER_RATES, o.atMillis(), o.sinkRate() / o.tasks(), CONSUMER_RATE_WINDOW * reconcileMillis);
        }
        double topicRate = percentile(m.recall(TOPIC_RATES), TOPIC_RATE_WINDOW);
        double targetRate = Double.isNaN(topicRate) ? 0 : topicRate;
        if (o.lag() > threshold) {
            targetRate += o.lag() / slaSeconds;
        }
        double perReplica = consumerMessagesPerSec != null
                ? consumerMessagesPerSec
                : percentile(m.recall(CONSUMER_RATES), CONSUMER_RATE_WINDOW);
        in.p99TopicRate(topicRate);
        in.targetRate(targetRate);
        in.consumerRatePerReplica(perReplica);
        int ideal = Double.isNaN(perReplica) ? o.tasks() : replicasFor(targetRate, perReplica * o.tasks(), o.tasks());
        int partitions = o.tasksWithPartitionsAtMost() > 0 ? o.tasksWithPartitionsAtMost() : bounds.maxTasks();
        int fitted = fitReplicaCount(
                o.tasks(),
                ideal,
                partitions,
                bounds.minTasks(),
                Math.min(bounds.maxTasks(), partitions),
                MAX_SCALE_INCREMENTS);
        in.idealReplicas(ideal);
        in.desiredTasks(fitted);
        String why = Verdicts.format(
                "(p99 %.0f/s%s) / %.0f per replica -> %d, fitted to %d",
                Double.isNaN(topicRate) ? 0 : topicRate,
                o.lag() > threshold ? Verdicts.format(" + lag %d / sla %.0f s", o.lag(), slaSeconds) : "",
                Double.isNaN(perReplica) ? 0 : perReplica,
                ideal,
                fitted);
        if (fitted == o.tasks()) {
            return Verdicts.none(o, "steady", "correctly scaled: " + why, in);
        }
        boolean scaledRecently = m.hasActed() && o.atMillis() - m.lastActionAtMillis() < coolOffMillis;
        PolicyMemory.Sample notReady = m.latest(NOT_READY);
        boolean notReadyRecently = notReady != null && o.atMillis() - notReady.atMillis() < coolOffMillis;
        if (scaledRecently || notReadyRecently) {
            return Verdicts.hold(
                    o,
                    "cool-off",
                    (notReadyRecently && !scaledRecently ? "not ready recently" : "scaled recently") + ": " + why,
                    in);
        }
        return Verdicts.scaleTo(o, fitted, "rate-plus-lag", why, in);
    }

    /** The p99 of the newest {@code window} samples, as commons-math's DescriptiveStatistics (the peer's) gives it. */
    static double percentile(List<PolicyMemory.Sample> samples, int window) {
        if (samples.size() < MINIMUM_MEASUREMENTS) {
            return Double.NaN;
        }
        DescriptiveStatistics stats = new DescriptiveStatistics(window);
        samples.forEach(s -> stats.addValue(s.value()));
        return stats.getPercentile(PERCENTILE);
    }

    /** The trigger's inverted result: the replicas whose consumption reaches the target rate. */
    static int replicasFor(double targetRate, double consumerRate, int current) {
        return (int) Math.min(Integer.MAX_VALUE, Math.ceil(current * (targetRate / consumerRate)));
    }

    /**
     * The peer's fit: a count that divides the partitions, at least the ideal (or the largest), moved at most
     * {@code maxScaleIncrements} steps along those counts from the current one.
     */
    static int fitReplicaCount(
            int current, int ideal, int partitions, int minReplicas, int maxReplicas, int maxScaleIncrements) {
        if (ideal == 0) {
            return Math.max(current, minReplicas);
        }
        int target = Math.min(Math.max(ideal, minReplicas), maxReplicas);
        int[] allowed = IntStream.rangeClosed(1, partitions)
                .filter(i -> partitions % i == 0)
                .toArray();
        int currentIndex = indexAtOrAbove(current, allowed);
        int newIndex = indexAtOrAbove(target, allowed);
        if (Math.abs(currentIndex - newIndex) > maxScaleIncrements) {
            newIndex = currentIndex > newIndex
                    ? Math.max(currentIndex - maxScaleIncrements, 0)
                    : Math.min(currentIndex + maxScaleIncrements, allowed.length - 1);
        }
        return allowed[newIndex];
    }

    private static int indexAtOrAbove(int count, int[] allowed) {
        for (int i = 0; i < allowed.length; i++) {
            if (allowed[i] >= count) {
                return i;
            }
        }
        return allowed.length - 1;
    }
}
