package io.kcscale.scaler.predict;

import java.util.List;

/**
 * The answer of {@code predict tasks}. A task count is null when no number of tasks reaches its
 * rate; {@code sinkGrowth} then says how far the sink must grow instead, unless the ceiling's interval
 * reaches the rate: then neither is concluded and {@code measureNext} names the task count to measure.
 */
public record TasksResult(
        double targetRate,
        double perTaskRate,
        double utilization,
        String model,
        Integer minimumTasks,
        Integer recommendedTasks,
        Integer burstTasks,
        Integer partitions,
        Burst burst,
        Double lag,
        Double latencySecondsAtLag,
        Usl usl,
        SinkGrowth sinkGrowth,
        List<String> assumptions,
        List<String> advice,
        Intervals intervals,
        Extrapolation extrapolation,
        MeasureNext measureNext,
        Live live) {

    /** This answer with what the live pipeline says, and the assumptions and advice given. */
    TasksResult live(Live measured, List<String> assumptions, List<String> advice) {
        return new TasksResult(
                targetRate,
                perTaskRate,
                utilization,
                model,
                minimumTasks,
                recommendedTasks,
                burstTasks,
                partitions,
                burst,
                lag,
                latencySecondsAtLag,
                usl,
                sinkGrowth,
                List.copyOf(assumptions),
                List.copyOf(advice),
                intervals,
                extrapolation,
                measureNext,
                measured);
    }

    /**
     * A prediction from the per-task capacity the scaler measures live on a sink connector.
     *
     * @param connector        the sink connector
     * @param tasksRunning     its tasks RUNNING now
     * @param busyFraction     their mean busy fraction now; null when unknown
     * @param perTaskCapacity  one task's capacity: the median of the readings, within the central {@code level} of them
     * @param samples          the readings (every running task at every sample of the window)
     * @param windowSeconds    the window they span
     * @param level            the share of the readings each interval's range holds
     * @param sustainedRate    what the recommended tasks sustain, from the capacity's range
     * @param recommendedTasks the tasks the recommended rate needs, from the capacity's range
     * @param limitedBy        the first binding limit's factor
     * @param limits           what bounds the answer, binding or not: {@code tasks} (the tasks' own capacity, busy
     *                         tasks), {@code sink} (Elasticsearch rejects or queues writes; its shards),
     *                         {@code keys} (too few keys, or keys in too few partitions), {@code partitions} (too few
     *                         partitions for the tasks), {@code worker-cpu} (a CPU-bound worker, or one whose CPU is
     *                         unknown)
     */
    public record Live(
            String connector,
            int tasksRunning,
            Double busyFraction,
            Interval perTaskCapacity,
            int samples,
            double windowSeconds,
            double level,
            Interval sustainedRate,
            TaskInterval recommendedTasks,
            String limitedBy,
            List<Limit> limits) {}

    /**
     * One thing that bounds the answer.
     *
     * @param factor  {@code tasks}, {@code sink}, {@code keys}, {@code partitions} or {@code worker-cpu}
     * @param binding it sets the answer: past it, more tasks do not add throughput (for {@code tasks}: nothing else
     *                does)
     * @param detail  what was seen, in one line
     */
    public record Limit(String factor, boolean binding, String detail) {}

    /** The Poisson quantile the burst tasks absorb. */
    public record Burst(
            double burstWindowSeconds,
            double quantile,
            double arrivalsInWindow,
            double rate,
            boolean normalApproximation) {}

    /** The fitted Universal Scalability Law; {@code peakTasks} and {@code ceilingRate} are null when unbounded. */
    public record Usl(
            double lambda,
            double sigma,
            double kappa,
            double rSquared,
            int points,
            Integer peakTasks,
            Double ceilingRate) {}

    /**
     * What the next run may measure, from the USL fit: prediction intervals (the curve's uncertainty from refits of
     * resampled measurements, a residual bootstrap with a fixed seed, plus one run's noise drawn from the same
     * residuals); absent with three points or fewer, which leave no residual to show the noise.
     *
     * @param level            the share of runs each interval holds
     * @param margin           the share of each interval's estimate it was widened by on both sides, for where the
     *                         law itself misses
     * @param sustainedRate    the rate {@code recommendedTasks} sustain; null when no count reaches the recommended rate
     * @param ceilingRate      the most any task count sustains; null when the fit has no ceiling
     * @param recommendedTasks the task count a run needs for the recommended rate
     */
    public record Intervals(
            double level,
            double margin,
            int refits,
            Interval sustainedRate,
            Interval ceilingRate,
            TaskInterval recommendedTasks) {}

    /** A figure of the fit and its interval; {@code high} is null when some refits have no upper bound. */
    public record Interval(double estimate, double low, Double high) {

        /**
         * This interval widened on each side by {@code margin} times its estimate, for where the law itself misses (see
         * {@code intervalMargin}); never below zero, and open above if it was.
         */
        public Interval widened(double margin) {
            double by = margin * estimate;
            return new Interval(estimate, Math.max(0, low - by), high == null ? null : high + by);
        }
    }

    /**
     * A task count and its interval: {@code estimate} is the fit's (null: out of its reach); {@code high} is null when
     * the upper tail of runs reaches the rate with no task count, {@code low} null when no run does.
     */
    public record TaskInterval(Integer estimate, Integer low, Integer high) {}

    /** The answer is not firm: {@code reason} says why, and measuring {@code tasks} tasks decides it. */
    public record MeasureNext(int tasks, String reason) {}

    /**
     * The answer reaches beyond the measured task counts: {@code tasks} (the most it plans) is {@code factor}
     * times the most measured; past {@link TaskPrediction#EXTRAPOLATION_LIMIT} it is an assumption, not a measurement.
     */
    public record Extrapolation(int points, int mostTasksMeasured, int tasks, double factor, boolean beyondLimit) {}

    /** The sink must sustain {@code requiredRate}; tasks top out at {@code ceilingRate}. */
    public record SinkGrowth(double requiredRate, double ceilingRate, double factor, double additionalRate) {}
}
