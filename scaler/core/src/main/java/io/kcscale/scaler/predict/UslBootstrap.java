package io.kcscale.scaler.predict;

import org.apache.commons.math3.exception.MathIllegalStateException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * How far a USL fit can be trusted: a residual bootstrap. Each refit takes every measured point's
 * fitted throughput times a relative residual of the fit drawn with replacement (noise grows with
 * the rate), and fits again; the spread of a figure over the refits gives its interval. The seed is
 * fixed, so the same points always give the same interval. Pure.
 */
final class UslBootstrap {

    static final double CONFIDENCE = 0.95;
    static final int RESAMPLES = 400;
    private static final long SEED = 0x6b6373L;
    private static final int PARAMETERS = 3;

    private final List<UniversalScalabilityLaw> refits;

    private UslBootstrap(List<UniversalScalabilityLaw> refits) {
        this.refits = refits;
    }

    /**
     * Empty with no more points than the law's three parameters (nothing is left over to show the
     * noise), or when no refit converges.
     */
    static Optional<UslBootstrap> of(double[] tasks, double[] throughput, UniversalScalabilityLaw fitted) {
        int n = tasks.length;
        if (n <= PARAMETERS) {
            return Optional.empty();
        }
        double[] fittedRates = new double[n];
        double[] residuals = new double[n];
        for (int i = 0; i < n; i++) {
            fittedRates[i] = fitted.throughput((int) tasks[i]);
            residuals[i] = throughput[i] / fittedRates[i] - 1;
        }
        double mean = Arrays.stream(residuals).average().orElseThrow();
        // centred, and widened for the three parameters the fit spent: raw residuals understate the noise
        double inflation = Math.sqrt((double) n / (n - PARAMETERS));
        double[] noise = Arrays.stream(residuals).map(r -> (r - mean) * inflation).toArray();
        SplittableRandom random = new SplittableRandom(SEED);
        List<UniversalScalabilityLaw> refits = new ArrayList<>();
        for (int b = 0; b < RESAMPLES; b++) {
            double[] resampled = new double[n];
            for (int i = 0; i < n; i++) {
                resampled[i] = Math.max(Double.MIN_NORMAL, fittedRates[i] * (1 + noise[random.nextInt(n)]));
            }
            try {
                refits.add(UslFit.refit(tasks, resampled, fitted).law());
            } catch (MathIllegalStateException e) {
                // a resample the law cannot fit says nothing about the spread: leave it out
            }
        }
        return refits.isEmpty() ? Optional.empty() : Optional.of(new UslBootstrap(List.copyOf(refits)));
    }

    int refits() {
        return refits.size();
    }

    /** The central {@link #CONFIDENCE} interval of {@code figure} over the refits, around the fit's own value {@code estimate}. */
    TasksResult.Interval interval(double estimate, ToDoubleFunction<UniversalScalabilityLaw> figure) {
        double[] values = refits.stream().mapToDouble(figure).sorted().toArray();
        double tail = (1 - CONFIDENCE) / 2;
        // widened to hold the fit's own figure: a skewed spread could leave it out, and when nearly every refit is
        // unbounded the low percentile is infinite, which JSON cannot carry
        double low = Math.min(values[(int) Math.floor(tail * (values.length - 1))], estimate);
        double high = Math.max(values[(int) Math.ceil((1 - tail) * (values.length - 1))], estimate);
        // an unbounded refit (no contention seen) leaves the interval open above
        return new TasksResult.Interval(estimate, low, Double.isFinite(high) ? high : null);
    }
}
