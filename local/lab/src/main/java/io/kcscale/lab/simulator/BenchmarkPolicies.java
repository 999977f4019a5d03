package io.kcscale.lab.simulator;

import io.kcscale.lab.peers.LagThresholdRule;
import io.kcscale.lab.peers.PeerRules;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.RatioScalingRule;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.predict.LagThreshold;
import io.kcscale.scaler.predict.LagThresholdRequest;
import java.util.List;

/**
 * The contenders, aimed at the same latency target with the same task bounds. Ours runs the user's policy;
 * the KEDA-style baseline gets the lag threshold a careful operator would pick for that target: the lag one
 * task drains within it ({@code predict lag-threshold} with one task); the other peers' rules get the
 * per-task rate such an operator measured.
 *
 * @param kcscaleIntervalMillis how often our policy evaluates (the baseline polls every 30 s, KEDA's default)
 */
public record BenchmarkPolicies(
        AutoscalePolicy kcscale, long kcscaleIntervalMillis, long lagThreshold, double perTaskRate) {

    public BenchmarkPolicies {
        kcscale = kcscale.validated();
        if (kcscale.targetLatencySeconds() == null) {
            throw new IllegalArgumentException(
                    "the benchmark compares against a latency target: set targetLatencySeconds");
        }
        if (kcscaleIntervalMillis < 1) {
            throw new IllegalArgumentException(
                    "the evaluation interval must be positive, got " + kcscaleIntervalMillis + " ms");
        }
    }

    /** Ours with defaults but the target and bounds; the baseline's threshold from one task's rate. */
    public static BenchmarkPolicies forTarget(
            double perTaskRate, double targetLatencySeconds, int maxTasks, long kcscaleIntervalMillis) {
        AutoscalePolicy ours =
                new AutoscalePolicy(1, maxTasks, targetLatencySeconds, null, null, null, null, null, false, null);
        long threshold = LagThreshold.predict(new LagThresholdRequest(perTaskRate, 1.0, targetLatencySeconds))
                .lagThreshold();
        return new BenchmarkPolicies(ours, kcscaleIntervalMillis, threshold, perTaskRate);
    }

    public double targetLatencySeconds() {
        return kcscale.targetLatencySeconds();
    }

    /** Fresh instances, ours first, then the KEDA-style baseline, then the other peers. */
    public List<ScalingRule> create() {
        List<ScalingRule> all = new java.util.ArrayList<>();
        all.add(new RatioScalingRule(kcscale, kcscaleIntervalMillis));
        all.add(new LagThresholdRule(lagThreshold, kcscale.minTasks(), kcscale.maxTasks()));
        all.addAll(PeerRules.create(perTaskRate, targetLatencySeconds(), kcscale.minTasks(), kcscale.maxTasks()));
        return List.copyOf(all);
    }
}
