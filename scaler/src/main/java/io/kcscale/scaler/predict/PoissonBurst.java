package io.kcscale.scaler.predict;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.PoissonDistribution;

/**
 * The arrivals a window must absorb when records arrive as a Poisson process: the given quantile
 * of the count in one window, whose mean is rate × window.
 *
 * @param arrivals   records arriving in one window at the quantile
 * @param approximated whether the normal approximation was used instead of the exact distribution
 */
public record PoissonBurst(double arrivals, boolean approximated) {

    /**
     * Above this mean the exact quantile would approach the int range Commons Math counts in; the
     * normal approximation mean + z·sqrt(mean) is then off by well under a record in a million.
     */
    public static final double EXACT_MEAN_LIMIT = 1e8;

    public static PoissonBurst of(double ratePerSecond, double windowSeconds, double quantile) {
        double mean = ratePerSecond * windowSeconds;
        if (mean > EXACT_MEAN_LIMIT) {
            double z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(quantile);
            return new PoissonBurst(Math.ceil(mean + z * Math.sqrt(mean)), true);
        }
        PoissonDistribution poisson = new PoissonDistribution(null, mean,
                PoissonDistribution.DEFAULT_EPSILON, PoissonDistribution.DEFAULT_MAX_ITERATIONS);
        return new PoissonBurst(poisson.inverseCumulativeProbability(quantile), false);
    }

    /** The rate that clears the quantile's arrivals within the window. */
    public double ratePerSecond(double windowSeconds) {
        return arrivals / windowSeconds;
    }
}
