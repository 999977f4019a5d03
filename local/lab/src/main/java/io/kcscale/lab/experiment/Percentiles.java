package io.kcscale.lab.experiment;

import java.util.Arrays;

/** Nearest-rank percentiles of a sample. Pure. */
public final class Percentiles {

    private final double[] sorted;

    public Percentiles(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("percentiles of an empty sample");
        }
        sorted = values.clone();
        Arrays.sort(sorted);
    }

    /** The smallest value with at least {@code q} of the sample at or below it, {@code q} in (0, 1]. */
    public double at(double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    public int size() {
        return sorted.length;
    }
}
