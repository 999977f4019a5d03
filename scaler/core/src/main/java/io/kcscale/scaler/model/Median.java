package io.kcscale.scaler.model;

/** The median of figures already sorted, the mean of the middle two when their count is even. Pure. */
public final class Median {

    private Median() {}

    /** @param sorted ascending, not empty */
    public static double ofSorted(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
