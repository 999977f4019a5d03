package io.kcscale.lab.peers;

import io.kcscale.scaler.autoscale.ScalingRule;

/**
 * What every peer's rule shares: its name in reports, how often it evaluates, the task bounds, and — for all
 * but the lag threshold — the latency target and the per-task rate an operator measured.
 */
abstract class PeerRule implements ScalingRule {

    private final String name;
    private final long intervalMillis;
    protected final PeerBounds bounds;
    protected final double perTaskRate;
    protected final double targetLatencySeconds;

    /** A rule that aims at a latency target with a known per-task rate. */
    PeerRule(
            String name,
            long intervalMillis,
            double perTaskRate,
            double targetLatencySeconds,
            int minTasks,
            int maxTasks) {
        PeerBounds.requirePositive("perTaskRate", perTaskRate);
        PeerBounds.requirePositive("targetLatencySeconds", targetLatencySeconds);
        this.name = name;
        this.intervalMillis = intervalMillis;
        this.bounds = new PeerBounds(minTasks, maxTasks);
        this.perTaskRate = perTaskRate;
        this.targetLatencySeconds = targetLatencySeconds;
    }

    /** A rule that knows neither: only its bounds. */
    PeerRule(String name, long intervalMillis, int minTasks, int maxTasks) {
        this.name = name;
        this.intervalMillis = intervalMillis;
        this.bounds = new PeerBounds(minTasks, maxTasks);
        this.perTaskRate = Double.NaN;
        this.targetLatencySeconds = Double.NaN;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final long evaluationIntervalMillis() {
        return intervalMillis;
    }
}
