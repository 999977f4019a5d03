package io.kcscale.scaler.predict;

import java.util.List;

/**
 * The answer of {@code predict tasks}. A task count is null when no number of tasks reaches its
 * rate; {@code sinkGrowth} then says how far the sink must grow instead.
 */
public record TasksResult(
        double targetRate,
        double perTaskRate,
        double utilization,
        String model,
        Integer minimumTasks,
        Integer recommendedTasks,
        Integer burstTasks,
        Integer partitions,
        Burst burst,
        Double lag,
        Double latencySecondsAtLag,
        Usl usl,
        SinkGrowth sinkGrowth,
        List<String> assumptions,
        List<String> advice) {

    /** The Poisson quantile the burst tasks absorb. */
    public record Burst(double windowSeconds, double quantile, double arrivalsInWindow, double rate,
                        boolean normalApproximation) {
    }

    /** The fitted Universal Scalability Law; {@code peakTasks} and {@code ceilingRate} are null when unbounded. */
    public record Usl(double lambda, double sigma, double kappa, double rSquared, int points,
                      Integer peakTasks, Double ceilingRate) {
    }

    /** The sink must sustain {@code requiredRate}; tasks top out at {@code ceilingRate}. */
    public record SinkGrowth(double requiredRate, double ceilingRate, double factor, double additionalRate) {
    }
}
