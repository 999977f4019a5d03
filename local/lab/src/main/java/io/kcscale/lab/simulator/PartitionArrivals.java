package io.kcscale.lab.simulator;

import io.kcscale.vocabulary.Arrivals;

/**
 * The records that arrive in each partition during one step. Steady phases carry each partition's
 * fraction of a record to the next step, so the rate is exact; Poisson phases draw each partition's
 * count independently, which is exact too (a split Poisson process is one per part).
 */
final class PartitionArrivals {

    private final double[] weights;
    private final double[] carry;
    private final long[] counts;
    private final PoissonSampler poisson;

    PartitionArrivals(double[] weights, PoissonSampler poisson) {
        this.weights = weights.clone();
        this.carry = new double[weights.length];
        this.counts = new long[weights.length];
        this.poisson = poisson;
    }

    /** Records per partition arriving within {@code seconds} of {@code phase}; the array is reused by the next call. */
    long[] next(LoadPhase phase, double seconds) {
        for (int p = 0; p < weights.length; p++) {
            double mean = phase.ratePerSecond() * weights[p] * seconds;
            if (phase.arrivals() == Arrivals.POISSON) {
                counts[p] = poisson.sample(mean);
            } else {
                carry[p] += mean;
                counts[p] = (long) carry[p];
                carry[p] -= counts[p];
            }
        }
        return counts;
    }
}
