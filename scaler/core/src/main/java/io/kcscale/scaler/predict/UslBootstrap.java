package io.kcscale.scaler.predict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.exception.MathIllegalStateException;

/**
 * How far a USL fit says what the next run will measure: a residual bootstrap with prediction intervals.
 * Each refit takes every measured point's fitted throughput times a relative residual of the fit drawn
 * with replacement (noise grows with the rate), and fits again: the spread of the refits is the curve's
 * uncertainty. A run measures the curve plus its own noise, so each refit's figure is multiplied once
 * more by (1 + s·t): s the fit's relative residual standard error, t drawn from Student's t with as many
 * degrees of freedom as points beyond the three parameters (few points say little about the noise, and
 * t's heavy tails say so). The spread of those is the prediction interval, at {@link #LEVEL}, widened on each side
 * by a margin, a share of the estimate, for where the law itself misses, which no resampling of its residuals shows.
 * The seed is fixed, so the same points always give the same interval. Pure.
 */
final class UslBootstrap {

    /** The share of the predicted runs inside each interval. */
    static final double LEVEL = 0.90;

    static final int RESAMPLES = 400;
    private static final long SEED = 0x6b6373L;
    private static final int PARAMETERS = 3;

    private final List<UniversalScalabilityLaw> refits;
    /** The fit's relative residual standard error. */
    private final double spread;

    private final TDistribution runNoise;

    private UslBootstrap(List<UniversalScalabilityLaw> refits, double spread, int degreesOfFreedom) {
        this.refits = refits;
        this.spread = spread;
        // no random generator: draws come from the fixed-seed uniforms through the inverse distribution function
        this.runNoise = new TDistribution(null, degreesOfFreedom);
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
        double[] noise =
                Arrays.stream(residuals).map(r -> (r - mean) * inflation).toArray();
        SplittableRandom random = new SplittableRandom(SEED);
        List<UniversalScalabilityLaw> refits = new ArrayList<>();
        for (int b = 0; b < RESAMPLES; b++) {
            double[] resampled = new double[n];
            boolean measurable = true;
            for (int i = 0; i < n; i++) {
                resampled[i] = fittedRates[i] * (1 + noise[random.nextInt(n)]);
                measurable &= resampled[i] > 0;
            }
            if (!measurable) {
                continue; // a rate at or below zero is no run's measurement: the resample says nothing
            }
            try {
                UniversalScalabilityLaw law =
                        UslFit.refit(tasks, resampled, fitted).law();
                if (UslFit.physical(law)) {
                    refits.add(law);
                }
            } catch (MathIllegalStateException e) {
                // a resample the law cannot fit says nothing about the spread: leave it out
            }
        }
        double spread = Math.sqrt(
                Arrays.stream(residuals).map(r -> (r - mean) * (r - mean)).sum() / (n - PARAMETERS));
        return refits.isEmpty()
                ? Optional.empty()
                : Optional.of(new UslBootstrap(List.copyOf(refits), spread, n - PARAMETERS));
    }

    int refits() {
        return refits.size();
    }

    /**
     * The central {@link #LEVEL} interval of what a run measures for {@code figure}: each refit's figure times one run's
     * noise; around the fit's own value {@code estimate}, widened on each side by {@code margin} times it.
     */
    TasksResult.Interval interval(double estimate, ToDoubleFunction<UniversalScalabilityLaw> figure, double margin) {
        SplittableRandom random = new SplittableRandom(SEED);
        // a rate is not below zero, whatever the noise draws
        double[] values = refits.stream()
                .mapToDouble(law -> Math.max(0, figure.applyAsDouble(law) * runScale(random)))
                .sorted()
                .toArray();
        // widened to hold the fit's own figure: a skewed spread could leave it out
        double low = Math.min(values[lowIndex(values.length)], estimate);
        double high = Math.max(values[highIndex(values.length)], estimate);
        // an unbounded refit (no contention seen) leaves the interval open above
        return new TasksResult.Interval(estimate, low, Double.isFinite(high) ? high : null).widened(margin);
    }

    /**
     * The central {@link #LEVEL} interval of the task count a run needs to sustain {@code rate}: per refit, the fewest
     * tasks whose rate, with one run's noise, reaches it. {@code high} is null when more than the upper tail of refits
     * reach it with no task count; {@code low} null when none reaches it.
     */
    TasksResult.TaskInterval tasks(Integer estimate, double rate, double margin) {
        SplittableRandom random = new SplittableRandom(SEED);
        double[] scales = refits.stream().mapToDouble(law -> runScale(random)).toArray();
        // the margin as the rate interval takes it: the low count from runs that measure margin × the refit's figure
        // more, the high count from runs that measure as much less
        long low = counts(rate, scales, margin)[lowIndex(scales.length)];
        long high = counts(rate, scales, -margin)[highIndex(scales.length)];
        Integer lowCount =
                low == Long.MAX_VALUE ? estimate : (Integer) (int) (estimate == null ? low : Math.min(low, estimate));
        // widened to hold the fit's own count: an unreachable estimate leaves the interval open above
        Integer highCount =
                high == Long.MAX_VALUE || estimate == null ? null : (Integer) (int) Math.max(high, estimate);
        return new TasksResult.TaskInterval(estimate, lowCount, highCount);
    }

    /** Per refit, sorted, the fewest tasks for {@code rate} when a run measures its curve times {@code scale + shift}. */
    private long[] counts(double rate, double[] scales, double shift) {
        long[] counts = new long[scales.length];
        for (int i = 0; i < scales.length; i++) {
            double scale = scales[i] + shift;
            OptionalInt n = scale > 0 ? refits.get(i).tasksFor(rate / scale) : OptionalInt.empty();
            // an unreachable count sorts last, as "more tasks than any"
            counts[i] = n.isPresent() ? n.getAsInt() : Long.MAX_VALUE;
        }
        Arrays.sort(counts);
        return counts;
    }

    /** One run's measurement relative to the curve: 1 + s·t. */
    private double runScale(SplittableRandom random) {
        return 1 + spread * runNoise.inverseCumulativeProbability(random.nextDouble(Math.ulp(1.0), 1.0));
    }

    private static int lowIndex(int length) {
        return (int) Math.floor((1 - LEVEL) / 2 * (length - 1));
    }

    private static int highIndex(int length) {
        return (int) Math.ceil((1 + LEVEL) / 2 * (length - 1));
    }
}
