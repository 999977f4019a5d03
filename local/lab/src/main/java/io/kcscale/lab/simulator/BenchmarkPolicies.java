package io.kcscale.lab.simulator;

import java.util.List;

import io.kcscale.scaler.autoscale.AutoscaleSettings;
import io.kcscale.scaler.autoscale.LagThresholdPolicy;
import io.kcscale.scaler.autoscale.RatioScalingPolicy;
import io.kcscale.scaler.autoscale.ScalingPolicy;
import io.kcscale.scaler.predict.LagThreshold;
import io.kcscale.scaler.predict.LagThresholdRequest;

/**
 * The two contenders, aimed at the same latency target. Ours runs the user's policy; the KEDA-style
 * baseline gets the lag threshold a careful operator would pick for that target: the lag one task drains
 * within it ({@code predict lag-threshold} with one task), with the same task bounds.
 *
 * @param kcscaleIntervalMillis how often our policy evaluates (the baseline polls every 30 s, KEDA's default)
 */
public record BenchmarkPolicies(AutoscaleSettings kcscale, long kcscaleIntervalMillis, long lagThreshold) {

    public BenchmarkPolicies {
        kcscale = kcscale.validated();
        if (kcscale.targetLatencySeconds() == null) {
            throw new IllegalArgumentException("the benchmark compares against a latency target: set targetLatencySeconds");
        }
        if (kcscaleIntervalMillis < 1) {
            throw new IllegalArgumentException("the evaluation interval must be positive, got " + kcscaleIntervalMillis + " ms");
        }
    }

    /** Ours with defaults but the target and bounds; the baseline's threshold from one task's rate. */
    public static BenchmarkPolicies forTarget(double perTaskRate, double targetLatencySeconds, int maxTasks,
                                              long kcscaleIntervalMillis) {
        AutoscaleSettings ours = new AutoscaleSettings(1, maxTasks, targetLatencySeconds, null, null, null, null, null, false, null);
        long threshold = LagThreshold.predict(new LagThresholdRequest(perTaskRate, 1.0, targetLatencySeconds)).lagThreshold();
        return new BenchmarkPolicies(ours, kcscaleIntervalMillis, threshold);
    }

    public double targetLatencySeconds() {
        return kcscale.targetLatencySeconds();
    }

    /** Fresh instances, ours first. */
    public List<ScalingPolicy> create() {
        return List.of(new RatioScalingPolicy(kcscale, kcscaleIntervalMillis),
                new LagThresholdPolicy(lagThreshold, kcscale.minTasks(), kcscale.maxTasks()));
    }
}
