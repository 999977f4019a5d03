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
        List<String> advice,
        Intervals intervals,
        Extrapolation extrapolation) {

    /** The Poisson quantile the burst tasks absorb. */
    public record Burst(double windowSeconds, double quantile, double arrivalsInWindow, double rate,
                        boolean normalApproximation) {
    }

    /** The fitted Universal Scalability Law; {@code peakTasks} and {@code ceilingRate} are null when unbounded. */
    public record Usl(double lambda, double sigma, double kappa, double rSquared, int points,
                      Integer peakTasks, Double ceilingRate) {
    }

    /**
     * How far the USL fit can be trusted, from refits of resampled measurements (a residual bootstrap
     * with a fixed seed); absent with three points or fewer, which leave no residual to show the noise.
     *
     * @param sustainedRate the rate {@code recommendedTasks} sustain; null when no count reaches the recommended rate
     * @param ceilingRate   the most any task count sustains; null when the fit has no ceiling
     */
    public record Intervals(double confidence, int refits, Interval sustainedRate, Interval ceilingRate) {
    }

    /** A figure of the fit and its interval; {@code high} is null when some refits have no upper bound. */
    public record Interval(double estimate, double low, Double high) {
    }

    /**
     * The answer reaches beyond the measured task counts: {@code tasks} (the most it plans) is {@code factor}
     * times the most measured; past {@link TaskPrediction#EXTRAPOLATION_LIMIT} it is an assumption, not a measurement.
     */
    public record Extrapolation(int points, int mostTasksMeasured, int tasks, double factor, boolean beyondLimit) {
    }

    /** The sink must sustain {@code requiredRate}; tasks top out at {@code ceilingRate}. */
    public record SinkGrowth(double requiredRate, double ceilingRate, double factor, double additionalRate) {
    }
}
