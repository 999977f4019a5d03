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
            double z = standardNormalQuantile(quantile);
            return new PoissonBurst(Math.ceil(mean + z * Math.sqrt(mean)), true);
        }
        PoissonDistribution poisson = new PoissonDistribution(
                null, mean, PoissonDistribution.DEFAULT_EPSILON, PoissonDistribution.DEFAULT_MAX_ITERATIONS);
        return new PoissonBurst(poisson.inverseCumulativeProbability(quantile), false);
    }

    /** Below this the quantile comes from bisecting the normal distribution function instead of inverting it. */
    private static final double FAR_LEFT_TAIL = 1e-9;

    /**
     * z with Φ(z) = p. Commons Math inverts through erf⁻¹(2p − 1), and 2p − 1 rounds to −1 for p below
     * about 1e-16, giving −∞ (and loses digits well before): far in the left tail, bisect Φ, which Commons
     * Math computes from erfc without that cancellation, between −40 (Φ is 0 there in doubles) and −5.
     */
    static double standardNormalQuantile(double p) {
        NormalDistribution normal = new NormalDistribution(null, 0, 1);
        if (p >= FAR_LEFT_TAIL) {
            return normal.inverseCumulativeProbability(p);
        }
        double low = -40; // Φ(low) < p
        double high = -5; // Φ(high) >= p
        for (int i = 0; i < 200 && high - low > 1e-12; i++) {
            double mid = (low + high) / 2;
            if (normal.cumulativeProbability(mid) < p) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return high;
    }

    /** The rate that clears the quantile's arrivals within the window. */
    public double ratePerSecond(double windowSeconds) {
        return arrivals / windowSeconds;
    }
}
