package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;

import org.apache.commons.math3.exception.MathIllegalStateException;

import java.util.Arrays;
import java.util.List;

/**
 * Which scaling model a prediction rests on: a given per-task rate or one or two measured task
 * counts scale linearly; three or more measured task counts are fitted with the USL.
 *
 * @param usl             the fit, or null for a linear model
 * @param mostTasksMeasured the largest measured task count, 0 when nothing was measured
 * @param points          the measured points, 0 when nothing was measured
 * @param bootstrap       the fit's refits for intervals, or null (a linear model, or too few points)
 * @param basis           one sentence saying where the model comes from
 */
record ModelChoice(ScalingModel model, TasksResult.Usl usl, int mostTasksMeasured, int points, UslBootstrap bootstrap,
                   String basis) {

    /**
     * The most measured points a prediction takes. A sweep measures tens; the fit and its 400 refits cost CPU in
     * proportion to the points, so an unbounded list is a way to spend the scaler's cores from one request.
     */
    static final int MOST_MEASUREMENTS = 1_000;
    /** Below this R² the fitted curve explains too little of the measurements to trust without a warning. */
    private static final double POOR_FIT = 0.9;

    static ModelChoice of(Double perTaskRate, List<Measurement> measurements) {
        if (perTaskRate != null && measurements != null) {
            throw new InvalidInputException("perTaskRate", "cannot be combined with {0}: give one", "measurements");
        }
        if (measurements == null) {
            if (perTaskRate == null) {
                throw new InvalidInputException("perTaskRate", "is required (or give {0})", "measurements");
            }
            double rate = Inputs.positive("perTaskRate", perTaskRate);
            return new ModelChoice(new LinearScaling(rate), null, 0, 0, null,
                    "throughput scales linearly at the given " + Numbers.format(rate) + " records/s per task;"
                            + " measure three or more task counts to account for contention");
        }
        return fromMeasurements(measurements);
    }

    private static ModelChoice fromMeasurements(List<Measurement> measurements) {
        if (measurements.isEmpty()) {
            throw new InvalidInputException("measurements", "must hold at least one point");
        }
        if (measurements.size() > MOST_MEASUREMENTS) {
            throw new InvalidInputException("measurements", "hold " + Numbers.format(measurements.size()) + " points, more than the "
                    + Numbers.format(MOST_MEASUREMENTS) + " a prediction takes: give the mean of each task count's runs");
        }
        double[] tasks = new double[measurements.size()];
        double[] throughput = new double[measurements.size()];
        for (int i = 0; i < tasks.length; i++) {
            Measurement point = measurements.get(i);
            String at = "point " + (i + 1) + ": ";
            if (point == null) {
                throw new InvalidInputException("measurements", at + "is empty");
            }
            tasks[i] = Inputs.count("measurements", at + "tasks ", point.tasks(), 1);
            throughput[i] = Inputs.positive("measurements", at + "throughput ", point.throughput());
        }
        int most = (int) Arrays.stream(tasks).max().orElseThrow();
        long taskCounts = Arrays.stream(tasks).distinct().count();
        if (taskCounts < UslFit.MINIMUM_TASK_COUNTS) {
            // too few task counts to see contention: the slowest per-task rate seen, kept conservative
            double rate = Double.MAX_VALUE;
            for (int i = 0; i < tasks.length; i++) {
                rate = Math.min(rate, throughput[i] / tasks[i]);
            }
            return new ModelChoice(new LinearScaling(rate), null, most, tasks.length, null, "only " + taskCounts
                    + " distinct task count(s) measured, too few to fit the Universal Scalability Law: throughput"
                    + " scales linearly at the lowest measured per-task rate, " + Numbers.format(rate) + " records/s");
        }
        UslFit fit;
        try {
            fit = UslFit.of(tasks, throughput);
        } catch (MathIllegalStateException e) {
            throw new InvalidInputException("measurements", "do not follow the Universal Scalability Law (the fit did"
                    + " not converge): check that each point was measured in steady state");
        }
        UniversalScalabilityLaw law = fit.law();
        boolean bounded = Double.isFinite(law.ceilingRate());
        TasksResult.Usl usl = new TasksResult.Usl(law.lambda(), law.sigma(), law.kappa(), fit.rSquared(),
                tasks.length, law.peakTasks() == Integer.MAX_VALUE ? null : law.peakTasks(),
                bounded ? law.ceilingRate() : null);
        return new ModelChoice(law, usl, most, tasks.length, UslBootstrap.of(tasks, throughput, law).orElse(null),
                "throughput follows the Universal Scalability Law fitted to "
                + tasks.length + " measurements (λ " + Numbers.format(law.lambda()) + " records/s, σ "
                + Numbers.format(law.sigma(), 4) + ", κ " + Numbers.format(law.kappa(), 6) + ", R² "
                + Numbers.format(fit.rSquared(), 5) + ")"
                + (fit.rSquared() < POOR_FIT ? "; the fit is poor: the points are noisy or not all in steady state" : ""));
    }
}
