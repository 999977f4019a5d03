package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.exception.MathIllegalStateException;

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
record ModelChoice(
        ScalingModel model,
        TasksResult.Usl usl,
        int mostTasksMeasured,
        int points,
        UslBootstrap bootstrap,
        String basis) {

    /**
     * The most measured points a prediction takes. A sweep measures tens; the fit and its 400 refits cost CPU in
     * proportion to the points, so an unbounded list is a way to spend the scaler's cores from one request.
     */
    static final int MOST_MEASUREMENTS = 1_000;
    /** Below this R² the fitted curve explains too little of the measurements to predict from: the answer is refused. */
    static final double POOR_FIT = 0.9;
    /**
     * A task count whose per-task rate exceeds the fewest tasks' by more than this factor was not measured in steady
     * state: tasks share a sink and never speed each other up, and run-to-run noise stays well inside a quarter.
     */
    static final double SUPERLINEAR = 1.25;

    static ModelChoice of(Double perTaskRate, List<Measurement> measurements) {
        if (perTaskRate != null && measurements != null) {
            throw new InvalidInputException("perTaskRate", "cannot be combined with {0}: give one", "measurements");
        }
        if (measurements == null) {
            if (perTaskRate == null) {
                throw new InvalidInputException("perTaskRate", "is required (or give {0})", "measurements");
            }
            double rate = Inputs.positive("perTaskRate", perTaskRate);
            return new ModelChoice(
                    new LinearScaling(rate),
                    null,
                    0,
                    0,
                    null,
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
            throw new InvalidInputException(
                    "measurements",
                    "hold " + Numbers.format(measurements.size()) + " points, more than the "
                            + Numbers.format(MOST_MEASUREMENTS)
                            + " a prediction takes: give the mean of each task count's runs");
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
        refuseSuperlinear(tasks, throughput);
        int most = (int) Arrays.stream(tasks).max().orElseThrow();
        long taskCounts = Arrays.stream(tasks).distinct().count();
        if (taskCounts < UslFit.MINIMUM_TASK_COUNTS) {
            // too few task counts to see contention: the slowest per-task rate seen, kept conservative
            double rate = Double.MAX_VALUE;
            for (int i = 0; i < tasks.length; i++) {
                rate = Math.min(rate, throughput[i] / tasks[i]);
            }
            return new ModelChoice(
                    new LinearScaling(rate),
                    null,
                    most,
                    tasks.length,
                    null,
                    "only " + taskCounts
                            + " distinct task count(s) measured, too few to fit the Universal Scalability Law: throughput"
                            + " scales linearly at the lowest measured per-task rate, " + Numbers.format(rate)
                            + " records/s");
        }
        UslFit fit;
        try {
            fit = UslFit.of(tasks, throughput);
        } catch (MathIllegalStateException e) {
            throw new InvalidInputException(
                    "measurements",
                    "do not follow the Universal Scalability Law (the fit did"
                            + " not converge): check that each point was measured in steady state");
        }
        UniversalScalabilityLaw law = fit.law();
        if (!UslFit.physical(law)) {
            throw new InvalidInputException(
                    "measurements",
                    "do not follow the Universal Scalability Law (the fit gives"
                            + " one task no rate): re-measure each task count in steady state");
        }
        if (fit.rSquared() < POOR_FIT) {
            throw new InvalidInputException(
                    "measurements",
                    "fit the Universal Scalability Law poorly (R² "
                            + Numbers.format(fit.rSquared(), 3) + ", below " + Numbers.format(POOR_FIT)
                            + "): the points are noisy or"
                            + " not all in steady state; measure each task count again (two runs per count) before predicting");
        }
        boolean bounded = Double.isFinite(law.ceilingRate());
        TasksResult.Usl usl = new TasksResult.Usl(
                law.lambda(),
                law.sigma(),
                law.kappa(),
                fit.rSquared(),
                tasks.length,
                law.peakTasks() == Integer.MAX_VALUE ? null : law.peakTasks(),
                bounded ? law.ceilingRate() : null);
        return new ModelChoice(
                law,
                usl,
                most,
                tasks.length,
                UslBootstrap.of(tasks, throughput, law).orElse(null),
                "throughput follows the Universal Scalability Law fitted to "
                        + tasks.length + " measurements (λ " + Numbers.format(law.lambda()) + " records/s, σ "
                        + Numbers.format(law.sigma(), 4) + ", κ " + Numbers.format(law.kappa(), 6) + ", R² "
                        + Numbers.format(fit.rSquared(), 5) + ")");
    }

    /** Refuses points where more tasks did more per task than the fewest measured: see {@link #SUPERLINEAR}. */
    private static void refuseSuperlinear(double[] tasks, double[] throughput) {
        TreeMap<Double, double[]> sums = new TreeMap<>();
        for (int i = 0; i < tasks.length; i++) {
            double[] sum = sums.computeIfAbsent(tasks[i], k -> new double[2]);
            sum[0] += throughput[i];
            sum[1]++;
        }
        double fewest = sums.firstKey();
        double base = sums.firstEntry().getValue()[0] / sums.firstEntry().getValue()[1] / fewest;
        for (Map.Entry<Double, double[]> count : sums.entrySet()) {
            double perTask = count.getValue()[0] / count.getValue()[1] / count.getKey();
            if (perTask > SUPERLINEAR * base) {
                throw new InvalidInputException(
                        "measurements",
                        "are superlinear: " + Numbers.format(count.getKey())
                                + " tasks did " + Numbers.format(perTask) + " records/s per task, "
                                + Numbers.format(perTask / base, 2)
                                + "x the " + Numbers.format(base) + " of " + Numbers.format(fewest)
                                + " task(s), and tasks sharing a"
                                + " sink do not speed each other up: measure " + Numbers.format(fewest) + " and "
                                + Numbers.format(count.getKey()) + " tasks again, each in steady state");
            }
        }
    }
}
