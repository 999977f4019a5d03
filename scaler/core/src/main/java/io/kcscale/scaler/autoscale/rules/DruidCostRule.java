package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code druid-cost}: Apache Druid's cost-based supervisor autoscaler, after the idle-cost re-modelling of 2026 (pull
 * request 19378), as it stood on Druid's master branch in mid-2026 (no release had shipped it yet), with its
 * defaults. Files under {@code indexing-service/src/main/java/org/apache/druid/indexing/seekablestream/supervisor/
 * autoscaler/}:
 * <ul>
 *   <li>{@code WeightedCostFunction.java}: cost(n) = lagWeight × (lag recovery time + overrun × taskDuration) +
 *       idleWeight × U-shaped idle cost. Lag recovery time = lag × amplification ÷ (n × max(rate, 1,000/s)), the
 *       amplification max(1, 1 + 0.4 × ln(lag per partition)); the predicted idle ratio at n tasks is
 *       1 − busy ÷ (n ÷ current), its shortfall below 0 the overrun; the idle cost n × (0.25 + penalty), the penalty
 *       2.0 × ((0.25 − idle) ÷ 0.25)² below the ideal 0.25 and 1.0 × ((idle − 0.25) ÷ 0.75)² above it; no poll-idle
 *       reading counts as idle 0.5.</li>
 *   <li>{@code CostBasedAutoScaler.java}: candidates are ceil(partitions ÷ p) for every partitions-per-task p between
 *       partitions ÷ taskCountMax and partitions ÷ taskCountMin, a scale-down bounded to 4 partitions per task more
 *       than now; the cheapest wins; the processing rate is the tasks' 15-minute moving average.</li>
 *   <li>{@code CostBasedAutoScalerConfig.java}: lagWeight 0.4, idleWeight 0.6, evaluated every 10 minutes, a scale-up
 *       at least 10 minutes and a scale-down at least 30 minutes after the last scale, boundaries on scale-down only,
 *       no minimum cost drop, no critical-lag threshold (the fast path of pull request 19655 is off by default:
 *       when set, a lag at 95% of it jumps to the largest candidate).</li>
 * </ul>
 * Kafka ingestion's task duration (one hour) weighs the overrun. Druid reads each task's poll-idle ratio; here it is
 * 1 − the busy fraction the workers report.
 */
public final class DruidCostRule implements ScalingRule {

    public static final String NAME = "druid-cost";
    static final long PERIOD_MILLIS = 600_000;
    static final long MIN_SCALE_UP_DELAY_MILLIS = 600_000;
    static final long MIN_SCALE_DOWN_DELAY_MILLIS = 1_800_000;
    static final long RATE_AVERAGE_MILLIS = 900_000;
    static final double TASK_DURATION_SECONDS = 3_600;
    static final double LAG_WEIGHT = 0.4;
    static final double IDLE_WEIGHT = 0.6;
    static final double IDEAL_IDLE_RATIO = 0.25;
    static final double UNDER_PROVISIONING_PENALTY = 2.0;
    static final double OVER_PROVISIONING_PENALTY = 1.0;
    static final double LAG_AMPLIFICATION_MULTIPLIER = 0.4;
    static final double MIN_PROCESSING_RATE = 1_000;
    static final double MISSING_IDLE_RATIO = 0.5;
    static final int MAX_DECREASE_IN_PARTITIONS_PER_TASK = 4;
    static final double CRITICAL_LAG_JUMP_FRACTION = 0.95;
    private static final String RATE = "druid-cost.rate";

    private final TaskBounds bounds;
    private final Long criticalLagThreshold;
    private final long periodMillis;
    private final long scaleUpDelayMillis;
    private final long scaleDownDelayMillis;
    private final long rateAverageMillis;
    private final double taskDurationSeconds;

    /** @param criticalLagThreshold the fast path's threshold, or null (Druid's default: off) */
    DruidCostRule(TaskBounds bounds, Long criticalLagThreshold, double timeScale) {
        this.bounds = bounds;
        this.criticalLagThreshold = criticalLagThreshold;
        this.periodMillis = Verdicts.scaled(PERIOD_MILLIS, timeScale);
        this.scaleUpDelayMillis = Verdicts.scaled(MIN_SCALE_UP_DELAY_MILLIS, timeScale);
        this.scaleDownDelayMillis = Verdicts.scaled(MIN_SCALE_DOWN_DELAY_MILLIS, timeScale);
        this.rateAverageMillis = Verdicts.scaled(RATE_AVERAGE_MILLIS, timeScale);
        this.taskDurationSeconds = TASK_DURATION_SECONDS * timeScale;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long evaluationIntervalMillis() {
        return periodMillis;
    }

    /** What one evaluation sees, as Druid's {@code CostMetrics} holds it. */
    record Metrics(
            double aggregateLag, int currentTasks, int partitions, double pollIdleRatio, double processingRate) {}

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        double rate = movingAverageRate(o, m);
        double pollIdle = o.busyFraction() == null ? -1 : 1 - o.busyFraction();
        int partitions = o.tasksWithPartitionsAtMost() > 0 ? o.tasksWithPartitionsAtMost() : bounds.maxTasks();
        Metrics metrics = new Metrics(o.lag(), o.tasks(), partitions, pollIdle, rate);
        DecisionInputs.Builder in = new DecisionInputs.Builder();
        in.lag(o.lag());
        in.processingRatePerTask(rate);
        in.pollIdleRatio(o.busyFraction() == null ? null : pollIdle);
        int max = Math.min(bounds.maxTasks(), partitions);
        int[] candidates = candidates(partitions, o.tasks(), bounds.minTasks(), max);
        in.candidates(candidates.length);
        if (candidates.length == 0) {
            return Verdicts.none(o, "no-candidates", "no task count fits the bounds", in);
        }
        int optimal;
        String why;
        if (criticalLagThreshold != null && o.lag() >= CRITICAL_LAG_JUMP_FRACTION * criticalLagThreshold) {
            optimal = candidates[candidates.length - 1];
            why = Verdicts.format(
                    "lag %d at 95%% of the critical threshold %d -> %d tasks", o.lag(), criticalLagThreshold, optimal);
        } else {
            optimal = o.tasks();
            double best = Double.POSITIVE_INFINITY;
            for (int n : candidates) {
                double c = cost(metrics, n, taskDurationSeconds);
                if (c < best) {
                    best = c;
                    optimal = n;
                }
            }
            double current = cost(metrics, o.tasks(), taskDurationSeconds);
            in.currentCost(current);
            in.optimalCost(best);
            why = Verdicts.format("cost %.2f at %d tasks -> %.2f at %d", current, o.tasks(), best, optimal);
        }
        in.optimalTasks(optimal);
        if (optimal == o.tasks()) {
            return Verdicts.none(o, "cheapest", "the current count costs least: " + why, in);
        }
        long sinceLast = m.hasActed() ? o.atMillis() - m.lastActionAtMillis() : Long.MAX_VALUE;
        long delay = optimal > o.tasks() ? scaleUpDelayMillis : scaleDownDelayMillis;
        if (sinceLast < delay) {
            return Verdicts.hold(
                    o,
                    "scale-delay",
                    Verdicts.format(
                            "%s, but the last scale was %.0f s ago (at least %.0f s)",
                            why, sinceLast / 1000.0, delay / 1000.0),
                    in);
        }
        return Verdicts.scaleTo(o, optimal, "cost", why, in);
    }

    /** The tasks' processing rate, averaged as Druid's 15-minute moving average does (exponentially). */
    private double movingAverageRate(Observation o, PolicyMemory m) {
        double now = o.tasksRunning() == 0 ? 0 : o.sinkRate() / o.tasksRunning();
        PolicyMemory.Sample last = m.latest(RATE);
        double average = now;
        if (last != null && o.atMillis() > last.atMillis()) {
            double alpha = 1 - Math.exp(-(o.atMillis() - last.atMillis()) / (double) rateAverageMillis);
            average = last.value() + alpha * (now - last.value());
        } else if (last != null) {
            average = last.value();
        }
        m.remember(RATE, o.atMillis(), average, 0);
        return average;
    }

    /** Druid's weighted cost of running {@code tasks} tasks, with its default weights. */
    static double cost(Metrics m, int tasks, double taskDurationSeconds) {
        return cost(m, tasks, taskDurationSeconds, LAG_WEIGHT, IDLE_WEIGHT);
    }

    static double cost(Metrics m, int tasks, double taskDurationSeconds, double lagWeight, double idleWeight) {
        double lagRecovery = 0;
        if (m.aggregateLag() > 0) {
            double lagPerPartition = m.aggregateLag() / m.partitions();
            double amplification = Math.max(1.0, 1.0 + LAG_AMPLIFICATION_MULTIPLIER * Math.log(lagPerPartition));
            lagRecovery =
                    m.aggregateLag() * amplification / (tasks * Math.max(m.processingRate(), MIN_PROCESSING_RATE));
        }
        double predictedIdle;
        double overrun = 0;
        if (m.pollIdleRatio() < 0) {
            predictedIdle = MISSING_IDLE_RATIO;
        } else if (tasks == m.currentTasks()) {
            predictedIdle = m.pollIdleRatio();
        } else {
            double rawIdle = 1.0 - (1.0 - m.pollIdleRatio()) / ((double) tasks / m.currentTasks());
            predictedIdle = Math.min(1.0, Math.max(0.0, rawIdle));
            overrun = Math.max(0, -rawIdle);
        }
        return lagWeight * (lagRecovery + overrun * taskDurationSeconds)
                + idleWeight * uShapedIdleCost(predictedIdle, tasks);
    }

    /** The idle cost: least at the ideal idle ratio, rising on both sides, faster for too little idle. */
    static double uShapedIdleCost(double idle, int tasks) {
        double penalty;
        if (idle < IDEAL_IDLE_RATIO) {
            double norm = (IDEAL_IDLE_RATIO - idle) / IDEAL_IDLE_RATIO;
            penalty = UNDER_PROVISIONING_PENALTY * norm * norm;
        } else {
            double norm = (idle - IDEAL_IDLE_RATIO) / (1.0 - IDEAL_IDLE_RATIO);
            penalty = OVER_PROVISIONING_PENALTY * norm * norm;
        }
        return tasks * (IDEAL_IDLE_RATIO + penalty);
    }

    /**
     * The task counts Druid weighs: one per partitions-per-task ratio between the bounds, a scale-down no further than
     * {@link #MAX_DECREASE_IN_PARTITIONS_PER_TASK} partitions per task above now; ascending.
     */
    static int[] candidates(int partitions, int currentTasks, int minTasks, int maxTasks) {
        if (partitions <= 0 || currentTasks <= 0 || maxTasks < minTasks) {
            return new int[0];
        }
        int minPartitionsPerTask = Math.max(1, partitions / maxTasks);
        int maxPartitionsPerTask =
                Math.min(partitions, partitions / currentTasks + MAX_DECREASE_IN_PARTITIONS_PER_TASK);
        TreeSet<Integer> counts = new TreeSet<>();
        for (int ppt = minPartitionsPerTask; ppt <= maxPartitionsPerTask; ppt++) {
            int tasks = (partitions + ppt - 1) / ppt;
            if (tasks >= minTasks && tasks <= maxTasks) {
                counts.add(tasks);
            }
        }
        List<Integer> ascending = new ArrayList<>(counts);
        return ascending.stream().mapToInt(Integer::intValue).toArray();
    }
}
