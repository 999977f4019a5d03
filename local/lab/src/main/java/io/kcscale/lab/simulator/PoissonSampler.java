package io.kcscale.lab.simulator;

import java.util.SplittableRandom;
import org.apache.commons.math3.special.Gamma;

/**
 * Poisson-distributed counts from a seeded generator: by inversion for small means, by Hörmann's
 * transformed rejection (PTRS, the method NumPy uses) for large ones, so each draw costs O(1).
 */
final class PoissonSampler {

    /** Below this mean inversion is cheap and exact; above it PTRS is valid and faster. */
    private static final double INVERSION_LIMIT = 10;

    private final SplittableRandom random;

    PoissonSampler(SplittableRandom random) {
        this.random = random;
    }

    long sample(double mean) {
        if (mean <= 0) {
            return 0;
        }
        return mean < INVERSION_LIMIT ? byInversion(mean) : byTransformedRejection(mean);
    }

    private long byInversion(double mean) {
        double u = random.nextDouble();
        double p = Math.exp(-mean);
        double cumulative = p;
        long k = 0;
        while (u > cumulative && p > 0) {
            k++;
            p *= mean / k;
            cumulative += p;
        }
        return k;
    }

    /** W. Hörmann, "The transformed rejection method for generating Poisson random variables" (1993). */
    private long byTransformedRejection(double mean) {
        double logMean = Math.log(mean);
        double b = 0.931 + 2.53 * Math.sqrt(mean);
        double a = -0.059 + 0.02483 * b;
        double inverseAlpha = 1.1239 + 1.1328 / (b - 3.4);
        double vr = 0.9277 - 3.6224 / (b - 2);
        while (true) {
            double u = random.nextDouble() - 0.5;
            double v = random.nextDouble();
            double us = 0.5 - Math.abs(u);
            long k = (long) Math.floor((2 * a / us + b) * u + mean + 0.43);
            if (us >= 0.07 && v <= vr) {
                return k;
            }
            if (k < 0 || (us < 0.013 && v > us)) {
                continue;
            }
            if (Math.log(v) + Math.log(inverseAlpha) - Math.log(a / (us * us) + b)
                    <= -mean + k * logMean - Gamma.logGamma(k + 1.0)) {
                return k;
            }
        }
    }
}
