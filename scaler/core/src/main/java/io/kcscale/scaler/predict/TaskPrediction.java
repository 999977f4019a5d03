package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.vocabulary.Arrivals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/** How many sink tasks (and partitions) a target rate needs: {@code predict tasks}. */
public final class TaskPrediction {

    public static final double DEFAULT_UTILIZATION = 0.8;
    public static final double DEFAULT_WINDOW_SECONDS = 1;
    public static final double DEFAULT_QUANTILE = 0.99;
    /** Beyond this many times the most tasks measured, a planned count rests on the model's assumption alone. */
    public static final double EXTRAPOLATION_LIMIT = 2;
    /** The share of runs a prediction interval is meant to hold. */
    public static final double INTERVAL_LEVEL = UslBootstrap.LEVEL;
    /**
     * The share of its estimate each interval is widened by on both sides, for where the law itself misses: what
     * {@code experiment validate --repeat 3} measured in the lab's bending regime on 2026-11-29 (fit at 1 to 4 tasks,
     * held-out 6 tasks; 26 of 40 simulated validations inside the bare interval, 90% with 4%).
     */
    public static final double DEFAULT_INTERVAL_MARGIN = 0.04;

    private TaskPrediction() {}

    public static TasksResult predict(TasksRequest request) {
        if (request.connector() != null) {
            throw new InvalidInputException(
                    "connector",
                    "is read live by a scaler that observes it: send the request to the scaler"
                            + " (predict tasks --connector with --scaler-url)");
        }
        double target = Inputs.positive("targetRate", request.targetRate());
        double utilization = Inputs.utilization("utilization", request.utilization(), DEFAULT_UTILIZATION);
        BurstInput burstInput = BurstInput.of(request, target);
        Double lag = request.lag() == null ? null : Inputs.nonNegative("lag", request.lag());
        double margin = intervalMargin(request);
        ModelChoice choice = ModelChoice.of(request.perTaskRate(), request.measurements());
        ScalingModel model = choice.model();

        List<String> assumptions = new ArrayList<>();
        assumptions.add(choice.basis());
        double required = Inputs.finite(
                target / utilization,
                "utilization",
                "puts {0} / {1}, the capacity to" + " recommend, above " + Inputs.LARGEST + " records/s"
                        + Inputs.LARGEST_IS + ": raise it or lower {0}",
                "targetRate",
                "utilization");
        Integer minimum = tasks(model, target);
        Integer recommended = tasks(model, required);
        assumptions.add("recommended tasks have " + Numbers.format(required) + " records/s of capacity, so the target"
                + " keeps them at most " + Numbers.format(utilization * 100)
                + "% busy: headroom for bursts and rebalances");

        TasksResult.Burst burst = null;
        Integer burstTasks = null;
        if (burstInput != null) {
            PoissonBurst arrivals = PoissonBurst.of(target, burstInput.windowSeconds(), burstInput.quantile());
            double burstRate = Inputs.finite(
                    arrivals.ratePerSecond(burstInput.windowSeconds()),
                    "burstWindowSeconds",
                    "is so short that the burst rate, the arrivals in one window / {1}, is above " + Inputs.LARGEST
                            + " records/s" + Inputs.LARGEST_IS + ": lengthen it or lower {0}",
                    "targetRate",
                    "burstWindowSeconds");
            burst = new TasksResult.Burst(
                    burstInput.windowSeconds(),
                    burstInput.quantile(),
                    arrivals.arrivals(),
                    burstRate,
                    arrivals.approximated());
            burstTasks = tasks(model, burstRate);
            required = Math.max(required, burstRate);
            assumptions.add(burstInput.describe(target, arrivals));
        }

        List<Integer> needed = new ArrayList<>(Arrays.asList(minimum, recommended));
        if (burst != null) {
            needed.add(burstTasks);
        }
        boolean outOfReach = needed.contains(null);
        Integer partitions = partitions(model, needed, outOfReach);
        assumptions.add("partitions >= tasks: a sink task beyond the partition count sits idle");
        assumptions.add("distinct key values >= 10x partitions (20x is good): with fewer, some partitions stay"
                + " empty and their tasks starve; one hot key pins one partition");
        assumptions.add("the sink (Elasticsearch shards and data nodes) absorbs " + Numbers.format(required)
                + " records/s: see 'predict shards'");
        Double latency = null;
        if (lag != null) {
            latency = Inputs.finite(
                    lag / target,
                    "lag",
                    "/ {0}, the latency at this lag, is above " + Inputs.LARGEST + " seconds" + Inputs.LARGEST_IS
                            + ": lower it",
                    "targetRate");
            assumptions.add("latency at lag is Little's law, lag / throughput at steady state (= the target rate):"
                    + " an average, not a percentile");
        }
        if (choice.usl() != null && choice.points() <= UslFit.MINIMUM_TASK_COUNTS) {
            assumptions.add(
                    "no interval: " + choice.points() + " points for the law's 3 parameters leave no residual to show"
                            + " the measurements' noise; a fourth point (or a repeat) gives one");
        }
        TasksResult.Extrapolation extrapolation = extrapolation(choice, needed);
        if (extrapolation != null) {
            assumptions.add(describe(extrapolation, choice));
        }
        TasksResult.Intervals intervals = intervals(choice, recommended, required, margin);
        TasksResult.MeasureNext next = measureNext(choice, intervals, required, target, recommended);
        // the sink must grow only when the ceiling's interval, not just the fit, stays below the rate
        TasksResult.SinkGrowth growth = outOfReach && next == null ? sinkGrowth(model, required) : null;
        return new TasksResult(
                target,
                model.throughput(1),
                utilization,
                choice.usl() == null ? "linear" : "usl",
                minimum,
                recommended,
                burstTasks,
                partitions,
                burst,
                lag,
                latency,
                choice.usl(),
                growth,
                List.copyOf(assumptions),
                advice(growth, next, model),
                intervals,
                extrapolation,
                next,
                null);
    }

    /**
     * The fit's {@link UslBootstrap#LEVEL} prediction interval of what one run of {@code tasks} tasks measures, from
     * {@code measurements} alone; empty when they give no interval (a linear model, or no more points than the law's
     * three parameters), widened on each side by {@code margin} times its estimate (0: the bare bootstrap). What
     * {@code experiment validate} holds its re-measured held-out counts against.
     */
    public static Optional<TasksResult.Interval> rateInterval(
            List<Measurement> measurements, int tasks, double margin) {
        Inputs.share("intervalMargin", margin);
        ModelChoice choice = ModelChoice.of(null, measurements);
        UslBootstrap bootstrap = choice.bootstrap();
        return bootstrap == null
                ? Optional.empty()
                : Optional.of(
                        bootstrap.interval(choice.model().throughput(tasks), law -> law.throughput(tasks), margin));
    }

    /** The validated {@code intervalMargin}: only with measurements, whose fit alone has intervals to widen. */
    private static double intervalMargin(TasksRequest request) {
        if (request.intervalMargin() == null) {
            return DEFAULT_INTERVAL_MARGIN;
        }
        if (request.measurements() == null) {
            throw new InvalidInputException(
                    "intervalMargin", "applies only with {0}: intervals come from measured points", "measurements");
        }
        return Inputs.share("intervalMargin", request.intervalMargin());
    }

    /** The fit's prediction intervals: at the recommended count, of the ceiling, and of the count itself; null without a bootstrap. */
    private static TasksResult.Intervals intervals(
            ModelChoice choice, Integer recommended, double required, double margin) {
        UslBootstrap bootstrap = choice.bootstrap();
        if (bootstrap == null) {
            return null;
        }
        ScalingModel model = choice.model();
        return new TasksResult.Intervals(
                UslBootstrap.LEVEL,
                margin,
                bootstrap.refits(),
                recommended == null
                        ? null
                        : bootstrap.interval(model.throughput(recommended), law -> law.throughput(recommended), margin),
                Double.isFinite(model.ceilingRate())
                        ? bootstrap.interval(model.ceilingRate(), UniversalScalabilityLaw::ceilingRate, margin)
                        : null,
                bootstrap.tasks(recommended, required, margin));
    }

    /**
     * The task count to measure when the answer's interval straddles what it concludes: the ceiling's interval reaches a
     * rate the fit calls out of reach (measure where the fit peaks), or the recommended count's interval reaches below
     * the target (measure that count); null when the intervals agree with the answer or there are none.
     */
    private static TasksResult.MeasureNext measureNext(
            ModelChoice choice, TasksResult.Intervals intervals, double required, double target, Integer recommended) {
        if (intervals == null) {
            return null;
        }
        String level = Numbers.format(intervals.level() * 100) + "%";
        TasksResult.Interval ceiling = intervals.ceilingRate();
        if (recommended == null && ceiling != null && (ceiling.high() == null || ceiling.high() >= required)) {
            int peak = choice.model().peakTasks();
            TasksResult.TaskInterval count = intervals.recommendedTasks();
            int tasks = peak != Integer.MAX_VALUE
                    ? peak
                    : count.low() != null ? count.low() : 2 * choice.mostTasksMeasured();
            return new TasksResult.MeasureNext(
                    tasks,
                    "the fit tops out at " + Numbers.format(ceiling.estimate())
                            + " records/s, but the ceiling's " + level + " interval, " + range(ceiling)
                            + ", reaches the "
                            + Numbers.format(required)
                            + " records/s required: whether more tasks reach it or the sink must grow is"
                            + " undecided until " + tasks + " tasks are measured");
        }
        TasksResult.Interval sustained = intervals.sustainedRate();
        if (sustained != null && sustained.low() < target) {
            return new TasksResult.MeasureNext(
                    recommended,
                    "the " + level + " interval of what " + recommended + " tasks"
                            + " sustain, " + range(sustained) + ", reaches below the " + Numbers.format(target)
                            + " records/s target:"
                            + " measure " + recommended + " tasks before relying on them");
        }
        return null;
    }

    private static String range(TasksResult.Interval interval) {
        return Numbers.format(interval.low()) + "–"
                + (interval.high() == null ? "unbounded" : Numbers.format(interval.high()));
    }

    /** How far the most tasks the answer plans lie beyond the most measured; null within the measured range. */
    private static TasksResult.Extrapolation extrapolation(ModelChoice choice, List<Integer> needed) {
        int most = needed.stream()
                .filter(Objects::nonNull)
                .mapToInt(Integer::intValue)
                .max()
                .orElse(0);
        if (choice.points() == 0 || most <= choice.mostTasksMeasured()) {
            return null;
        }
        double factor = (double) most / choice.mostTasksMeasured();
        return new TasksResult.Extrapolation(
                choice.points(), choice.mostTasksMeasured(), most, factor, factor > EXTRAPOLATION_LIMIT);
    }

    private static String describe(TasksResult.Extrapolation e, ModelChoice choice) {
        String range =
                e.points() + " point" + (e.points() == 1 ? "" : "s") + " up to " + e.mostTasksMeasured() + " task"
                        + (e.mostTasksMeasured() == 1 ? "" : "s") + "; " + e.tasks() + " tasks is "
                        + Numbers.format(e.factor(), 1)
                        + "x beyond";
        if (!e.beyondLimit()) {
            return "extrapolates a little past the measurements (" + range
                    + "): measure closer to the target before relying on it";
        }
        return "extrapolates far past the measurements (" + range + "): "
                + (choice.usl() == null ? "the linear" : "the fitted USL")
                + " assumption, not a measurement, sets that count; measure near " + e.tasks()
                + " tasks before relying on it";
    }

    /** The fewest tasks for {@code rate}; null above the model's ceiling, an input error past the int range. */
    static Integer tasks(ScalingModel model, double rate) {
        OptionalInt tasks = model.tasksFor(rate);
        if (tasks.isPresent()) {
            return tasks.getAsInt();
        }
        if (rate >= model.ceilingRate()) {
            return null;
        }
        throw new InvalidInputException(
                "targetRate",
                "needs more than " + Numbers.format(Integer.MAX_VALUE) + " tasks at "
                        + Numbers.format(model.throughput(1)) + " records/s per task: lower it");
    }

    /** Enough partitions for the most tasks that add throughput: up to the peak when a rate is out of reach. */
    private static Integer partitions(ScalingModel model, List<Integer> needed, boolean outOfReach) {
        int most = 0;
        for (Integer count : needed) {
            most = count == null ? most : Math.max(most, count);
        }
        if (outOfReach && model.peakTasks() != Integer.MAX_VALUE) {
            most = Math.max(most, model.peakTasks());
        }
        return most == 0 ? null : most;
    }

    private static TasksResult.SinkGrowth sinkGrowth(ScalingModel model, double required) {
        double ceiling = model.ceilingRate();
        double factor = Inputs.finite(
                required / ceiling,
                "targetRate",
                "is so far above the most the connector"
                        + " sustains that the sink would have to grow more than " + Inputs.LARGEST + " times"
                        + Inputs.LARGEST_IS
                        + ": lower it");
        return new TasksResult.SinkGrowth(required, ceiling, factor, required - ceiling);
    }

    private static List<String> advice(
            TasksResult.SinkGrowth growth, TasksResult.MeasureNext next, ScalingModel model) {
        List<String> advice = new ArrayList<>();
        if (next != null) {
            advice.add(next.reason());
        }
        if (growth != null) {
            advice.add("more tasks cannot reach " + Numbers.format(growth.requiredRate()) + " records/s: the connector"
                    + " tops out at " + Numbers.format(growth.ceilingRate()) + " records/s"
                    + (model.peakTasks() == Integer.MAX_VALUE ? "" : " with " + model.peakTasks() + " tasks")
                    + ", so the sink, not the connector, must grow " + Numbers.format(growth.factor()) + "x (+"
                    + Numbers.format(growth.additionalRate()) + " records/s): more primary shards and data nodes,"
                    + " or bulk requests");
        }
        advice.add("bulk requests raise per-task throughput far more than extra tasks");
        advice.add("create the partitions up front: adding partitions later re-maps keys, so per-key ordering"
                + " breaks for a moment");
        advice.add("scale up by ratio (tasks x append rate / sink rate), not one task at a time: every change of"
                + " tasks.max rebalances the consumer group");
        return List.copyOf(advice);
    }

    /** The validated Poisson burst inputs; null for steady arrivals. */
    private record BurstInput(double windowSeconds, double quantile) {

        static BurstInput of(TasksRequest request, double target) {
            if (arrivals(request.arrivals()) == Arrivals.STEADY) {
                if (request.burstWindowSeconds() != null) {
                    throw new InvalidInputException("burstWindowSeconds", "applies only with {0} poisson", "arrivals");
                }
                if (request.quantile() != null) {
                    throw new InvalidInputException("quantile", "applies only with {0} poisson", "arrivals");
                }
                return null;
            }
            double window = Inputs.positive("burstWindowSeconds", request.burstWindowSeconds(), DEFAULT_WINDOW_SECONDS);
            double mean = target * window;
            if (!(mean > 0 && Double.isFinite(mean))) {
                throw new InvalidInputException(
                        "burstWindowSeconds",
                        "times {0} must give a finite, positive number of" + " arrivals per window",
                        "targetRate");
            }
            return new BurstInput(window, Inputs.quantile("quantile", request.quantile(), DEFAULT_QUANTILE));
        }

        /**
         * The {@code arrivals} input: 'steady' (the default) or 'poisson'; bursts are not modelled, so they are refused
         * like any unknown name.
         */
        private static Arrivals arrivals(String text) {
            if (text == null) {
                return Arrivals.STEADY;
            }
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "steady" -> Arrivals.STEADY;
                case "poisson" -> Arrivals.POISSON;
                default ->
                    throw new InvalidInputException("arrivals", "must be 'steady' or 'poisson', got '" + text + "'");
            };
        }

        String describe(double target, PoissonBurst arrivals) {
            return "arrivals are Poisson with mean " + Numbers.format(target) + " records/s; burst tasks absorb the "
                    + Numbers.format(quantile, 6) + " quantile of arrivals in a " + Numbers.format(windowSeconds)
                    + " s window (" + Numbers.format(arrivals.arrivals(), 0) + " records"
                    + (arrivals.approximated()
                            ? ", by the normal approximation to the Poisson quantile since the mean" + " exceeds "
                                    + Numbers.format(PoissonBurst.EXACT_MEAN_LIMIT, 0) + " arrivals per window"
                            : "")
                    + "); real traffic is often burstier than Poisson";
        }
    }
}
