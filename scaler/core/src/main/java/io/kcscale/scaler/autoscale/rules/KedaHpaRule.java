package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;

/**
 * {@code keda-hpa}: KEDA's Kafka scaler feeding a Kubernetes HorizontalPodAutoscaler, with the defaults both ship.
 *
 * <p>KEDA v2.20.2, {@code pkg/scalers/kafka_scaler.go}: the metric is the lag of every partition summed
 * ({@code getTotalLag}), capped at partitions × {@code lagThreshold} because {@code allowIdleConsumers} is off, and
 * served as an {@code AverageValue} target of {@code lagThreshold} ({@code GetMetricSpecForScaling}). KEDA's 30 s
 * {@code pollingInterval} only decides activation (0 ↔ 1 replicas); with {@code useCachedMetrics} off, the default,
 * every HPA sync reads the lag afresh ({@code pkg/scaling/scale_handler.go}).
 *
 * <p>Kubernetes v1.37, {@code pkg/controller/podautoscaler}: {@code replica_calculator.go}
 * ({@code GetExternalPerPodMetricReplicas}) takes the usage ratio lag ÷ (lagThreshold × replicas) and, outside the
 * 10% tolerance, proposes ceil(lag ÷ lagThreshold); KEDA creates its HPA without {@code behavior}, so
 * {@code horizontal.go} normalizes with {@code stabilizeRecommendation} (the highest proposal of the last 300 s, this
 * one included) and {@code convertDesiredReplicasWithRules} (at most max(2 × current, 4) replicas, then
 * minReplicas..maxReplicas); {@code config/v1alpha1/defaults.go}: a 15 s sync, a 300 s downscale stabilization,
 * tolerance 0.1. The HPA knows nothing of rebalances: it acts while the group is unstable too.
 */
public final class KedaHpaRule implements ScalingRule {

    public static final String NAME = "keda-hpa";
    static final long SYNC_MILLIS = 15_000;
    static final long DOWNSCALE_STABILIZATION_MILLIS = 300_000;
    static final double TOLERANCE = 0.1;
    static final double SCALE_UP_LIMIT_FACTOR = 2;
    static final int SCALE_UP_LIMIT_MINIMUM = 4;
    private static final String RECOMMENDATIONS = "keda-hpa.recommendations";

    private final long lagThreshold;
    private final TaskBounds bounds;
    private final long syncMillis;
    private final long stabilizationMillis;

    /**
     * @param lagThreshold KEDA's {@code lagThreshold}: the lag one replica is meant to hold
     * @param timeScale    how much shorter than the peer's the trace runs (1: as shipped)
     */
    KedaHpaRule(long lagThreshold, TaskBounds bounds, double timeScale) {
        if (lagThreshold < 1) {
            throw new IllegalArgumentException("lagThreshold must be at least 1, got " + lagThreshold);
        }
        this.lagThreshold = lagThreshold;
        this.bounds = bounds;
        this.syncMillis = Verdicts.scaled(SYNC_MILLIS, timeScale);
        this.stabilizationMillis = Verdicts.scaled(DOWNSCALE_STABILIZATION_MILLIS, timeScale);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long evaluationIntervalMillis() {
        return syncMillis;
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        DecisionInputs.Builder in = new DecisionInputs.Builder();
        in.lag(o.lag());
        in.lagThreshold(lagThreshold);
        int current = o.tasks();
        if (current > bounds.maxTasks() || current < bounds.minTasks()) {
            int to = Math.max(bounds.minTasks(), Math.min(bounds.maxTasks(), current));
            return Verdicts.scaleTo(o, to, "bounds", "outside minReplicas..maxReplicas", in);
        }
        long metric = kedaMetric(o.lag(), o.tasksWithPartitionsAtMost(), lagThreshold);
        int proposal = proposal(metric, lagThreshold, current);
        in.metric(metric);
        in.proposal(proposal);
        int stabilized = proposal;
        for (PolicyMemory.Sample s : m.recall(RECOMMENDATIONS)) {
            if (s.atMillis() > o.atMillis() - stabilizationMillis) {
                stabilized = Math.max(stabilized, (int) s.value());
            }
        }
        m.remember(RECOMMENDATIONS, o.atMillis(), proposal, stabilizationMillis);
        int desired = normalize(stabilized, current, bounds.minTasks(), bounds.maxTasks());
        in.desiredTasks(desired);
        if (desired == current) {
            if (stabilized > proposal) {
                return Verdicts.hold(
                        o,
                        "stabilization",
                        Verdicts.format(
                                "lag %d / threshold %d proposes %d, but %d was proposed within %.0f s",
                                metric, lagThreshold, proposal, stabilized, stabilizationMillis / 1000.0),
                        in);
            }
            return Verdicts.none(o, "steady", "lag within the tolerance of " + current + " × threshold", in);
        }
        return Verdicts.scaleTo(
                o,
                desired,
                "lag",
                Verdicts.format(
                        "lag %d / threshold %d -> %d replicas%s",
                        metric, lagThreshold, proposal, desired != stabilized ? " (limited to " + desired + ")" : ""),
                in);
    }

    /** KEDA's metric: the summed lag, capped so it never asks for more replicas than partitions. */
    static long kedaMetric(long lag, int partitions, long lagThreshold) {
        if (partitions > 0 && lag / lagThreshold > partitions) {
            return partitions * lagThreshold;
        }
        return lag;
    }

    /** The HPA's proposal for an AverageValue external metric: unchanged within the tolerance. */
    static int proposal(long metric, long targetAverageValue, int replicas) {
        double usageRatio = (double) metric / ((double) targetAverageValue * replicas);
        if (1.0 - TOLERANCE <= usageRatio && usageRatio <= 1.0 + TOLERANCE) {
            return replicas;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.ceil((double) metric / targetAverageValue));
    }

    /** The HPA's rules without {@code behavior}: at most max(2 × current, 4), then within min..max. */
    static int normalize(int desired, int current, int minReplicas, int maxReplicas) {
        int scaleUpLimit = (int) Math.max(SCALE_UP_LIMIT_FACTOR * current, SCALE_UP_LIMIT_MINIMUM);
        int maximumAllowed = Math.min(maxReplicas, scaleUpLimit);
        if (desired < minReplicas) {
            return minReplicas;
        }
        return Math.min(desired, maximumAllowed);
    }
}
