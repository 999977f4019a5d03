package io.kcscale.lab.experiment;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.predict.Measurement;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksResult;
import io.kcscale.scaler.predict.UniversalScalabilityLaw;
import io.kcscale.scaler.predict.UslFit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.IntToDoubleFunction;

/**
 * Whether the bare 90% prediction interval {@code predict tasks} gives for a held-out count ({@code --interval-margin
 * 0}) holds what runs of it measure, and the margin it needs, against the one {@code predict tasks} adds by default.
 * Checked twice: against the count's real re-measurements (a few, as a stack can afford), and against
 * {@link #SIMULATED_RUNS} whole validations drawn with the run-to-run spread those re-measurements showed, each fitting
 * noisy fit points afresh and measuring the held-out count once more: a few real runs cannot tell 90% from 60%, and
 * the simulated ones carry the real spread and the model's miss at the held-out count (their mean there is the real
 * runs' mean, not the fit's). A spread below what the rate search can resolve is read as that resolution: runs that
 * all land on the same step of the search have not shown there is no noise. When fewer than {@link #REQUIRED_SHARE} of
 * the simulated runs fall inside, the interval is widened on both sides by the share of its estimate that brings them
 * to its level: a margin, not a factor, as a fit without noise gives an interval of no width that no factor widens.
 * Pure.
 */
public final class IntervalCheck {

    /** Enough whole validations that the share inside is read to about ±5%. */
    public static final int SIMULATED_RUNS = 40;
    /** 17 of 20: below it, a 90% interval is too narrow by more than the runs' own chance spread. */
    public static final double REQUIRED_SHARE = 17.0 / 20;

    private static final double MARGIN_STEP = 0.005;
    private static final double MOST_MARGIN = 1;
    private static final long SEED = 0x696e74L;

    /**
     * @param interval        the fit's bare interval for one run of {@code tasks}, as {@code predict tasks
     *                        --interval-margin 0} gives it
     * @param measured        every real re-measurement of the count, records/s
     * @param inside          how many of them lie inside the interval
     * @param runToRunSpread  their sample standard deviation over their mean, at least the search's resolution
     * @param simulatedRuns   whole validations drawn with that spread; 0 when predict tasks refused every draw
     * @param simulatedInside how many of those measured inside the interval their own fit gave
     * @param margin          the share of the estimate added to each side that brings the simulated runs to its level;
     *                        0 when {@link #REQUIRED_SHARE} were inside, or none was simulated
     * @param widened         the interval with that margin (the interval itself when it is 0)
     */
    public record Result(
            int tasks,
            double level,
            TasksResult.Interval interval,
            List<Double> measured,
            int inside,
            double runToRunSpread,
            int simulatedRuns,
            int simulatedInside,
            double margin,
            TasksResult.Interval widened) {

        /** Whether {@link #REQUIRED_SHARE} of the simulated runs fell inside; absent when none was simulated. */
        @JsonProperty("held")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public Boolean held() {
            return simulatedRuns == 0 ? null : simulatedInside >= REQUIRED_SHARE * simulatedRuns;
        }

        /**
         * One line: the interval, the real runs and the simulated ones inside it, the margin if any, and whether the
         * one {@code predict tasks} adds by default is enough.
         */
        public String describe() {
            String runs = String.format(
                    Locale.ROOT,
                    "%d task(s): bare %.0f%% interval %s records/s; %d of %d runs inside (run-to-run spread %.1f%%); ",
                    tasks,
                    level * 100,
                    range(interval),
                    inside,
                    measured.size(),
                    runToRunSpread * 100);
            if (held() == null) {
                return runs + "no simulated validation: every draw was refused";
            }
            String verdict = held()
                    ? "the interval held"
                    : String.format(
                            Locale.ROOT,
                            "too narrow: widened by %.1f%% of its estimate to %s",
                            margin * 100,
                            range(widened));
            double byDefault = TaskPrediction.DEFAULT_INTERVAL_MARGIN;
            return runs
                    + String.format(
                            Locale.ROOT,
                            "%d of %d simulated validations with that spread inside: %s; predict tasks widens by %s%%"
                                    + " by default: %s",
                            simulatedInside,
                            simulatedRuns,
                            verdict,
                            Numbers.format(byDefault * 100, 1),
                            margin <= byDefault
                                    ? "enough"
                                    : "not enough, give --interval-margin " + Numbers.format(margin, 3));
        }

        private static String range(TasksResult.Interval i) {
            return String.format(
                    Locale.ROOT,
                    "%.0f–%s",
                    i.low(),
                    i.high() == null ? "open" : String.format(Locale.ROOT, "%.0f", i.high()));
        }
    }

    private IntervalCheck() {}

    /**
     * Empty when the fit points give no interval (fewer than four counts, or a linear model) or the count was measured
     * fewer than twice (one run shows no spread).
     *
     * @param resolution the relative standard deviation of one measurement from the search's steps alone
     */
    public static Optional<Result> of(List<HeldOut.Measured> fit, int tasks, List<Double> measured, double resolution) {
        Optional<TasksResult.Interval> interval = TaskPrediction.rateInterval(measurements(fit), tasks, 0);
        if (interval.isEmpty() || measured.size() < 2) {
            return Optional.empty();
        }
        double mean =
                measured.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double spread = Math.max(
                resolution,
                Math.sqrt(measured.stream()
                                        .mapToDouble(m -> (m - mean) * (m - mean))
                                        .sum()
                                / (measured.size() - 1))
                        / mean);
        // the truth the simulated runs measure: the fit where it was fitted, the real runs' mean at the held-out count
        UniversalScalabilityLaw law = law(fit);
        Map<Integer, Double> curve = new HashMap<>();
        fit.forEach(m -> curve.put(m.tasks(), law.throughput(m.tasks())));
        curve.put(tasks, mean);
        IntToDoubleFunction truth = curve::get;
        return Optional.of(result(tasks, interval.get(), measured, spread, simulate(fit, tasks, truth, spread)));
    }

    /** The check of the bare interval {@code fitted} against the real runs and the simulated ones (maybe none). */
    static Result result(
            int tasks, TasksResult.Interval fitted, List<Double> measured, double spread, List<Simulated> runs) {
        double level = TaskPrediction.INTERVAL_LEVEL;
        int simulatedInside = (int) runs.stream().filter(r -> r.inside(0)).count();
        double margin = 0;
        if (simulatedInside < REQUIRED_SHARE * runs.size()) {
            while (margin < MOST_MARGIN && share(runs, margin) < level) {
                margin += MARGIN_STEP;
            }
        }
        TasksResult.Interval widened = fitted.widened(margin);
        int inside = (int) measured.stream().filter(m -> contains(fitted, m)).count();
        return new Result(
                tasks,
                level,
                fitted,
                List.copyOf(measured),
                inside,
                spread,
                runs.size(),
                simulatedInside,
                Math.round(margin * 1000) / 1000.0,
                widened);
    }

    /** One simulated validation: the bare interval its noisy fit points gave, and what the held-out count measured. */
    record Simulated(TasksResult.Interval interval, double measured) {
        boolean inside(double margin) {
            return contains(interval.widened(margin), measured);
        }
    }

    private static List<Simulated> simulate(
            List<HeldOut.Measured> fit, int tasks, IntToDoubleFunction truth, double spread) {
        Random random = new Random(SEED);
        List<Simulated> runs = new ArrayList<>();
        // a draw the law cannot fit gives no interval and is not a run: bounded, so a degenerate spread ends
        for (int attempt = 0; runs.size() < SIMULATED_RUNS && attempt < 4 * SIMULATED_RUNS; attempt++) {
            List<HeldOut.Measured> noisy = fit.stream()
                    .map(m -> new HeldOut.Measured(m.tasks(), run(truth.applyAsDouble(m.tasks()), spread, random)))
                    .toList();
            double measured = run(truth.applyAsDouble(tasks), spread, random);
            try {
                TaskPrediction.rateInterval(measurements(noisy), tasks, 0)
                        .ifPresent(i -> runs.add(new Simulated(i, measured)));
            } catch (RuntimeException e) {
                // predict tasks refused the draw (a poor or superlinear fit): a user would have had no interval either
            }
        }
        return runs;
    }

    private static double run(double truth, double spread, Random random) {
        return Math.max(Double.MIN_NORMAL, truth * (1 + spread * random.nextGaussian()));
    }

    private static double share(List<Simulated> runs, double margin) {
        return runs.stream().filter(r -> r.inside(margin)).count() / (double) runs.size();
    }

    /** The law alone, as predict tasks fits it: the curve needs no bootstrap. */
    private static UniversalScalabilityLaw law(List<HeldOut.Measured> fit) {
        return UslFit.of(
                        fit.stream().mapToDouble(HeldOut.Measured::tasks).toArray(),
                        fit.stream()
                                .mapToDouble(HeldOut.Measured::sustainedRate)
                                .toArray())
                .law();
    }

    private static boolean contains(TasksResult.Interval i, double value) {
        return value >= i.low() && (i.high() == null || value <= i.high());
    }

    private static List<Measurement> measurements(List<HeldOut.Measured> points) {
        return points.stream()
                .map(m -> new Measurement((double) m.tasks(), m.sustainedRate()))
                .toList();
    }
}
