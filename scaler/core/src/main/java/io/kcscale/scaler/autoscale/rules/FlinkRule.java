package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import java.util.List;

/**
 * {@code flink}: the autoscaler of Apache Flink's Kubernetes operator, release 1.15.0
 * ({@code flink-autoscaler/src/main/java/org/apache/flink/autoscaler/}), applied to the sink's tasks as one source
 * vertex whose parallelism is the tasks and whose source partitions are the topic's.
 * <ul>
 *   <li>{@code ScalingMetricCollector.java}: after a restart it waits the stabilization interval (5 min), then
 *       collects a full metric window (15 min) before it evaluates; a restart starts the window again.</li>
 *   <li>{@code ScalingMetricEvaluator.java}: the true processing rate is the input rate ÷ the busy fraction
 *       ({@code computeTprFromBusyTime}), or the rate observed while catching up (lag over 30 s of input, at least 2
 *       observations) when the busy-time rate exceeds it by more than 15%; the target data rate is the input rate plus
 *       the lag's growth over the window; while the lag exceeds 5 min of input the job is processing backlog and the
 *       utilization bounds open to 0..1.</li>
 *   <li>{@code utils/AutoScalerUtils.java} ({@code getTargetProcessingCapacity}): capacity = lag ÷ catch-up duration
 *       (30 min) + target rate × restart time (5 min) ÷ catch-up duration + target rate ÷ utilization (0.7); the
 *       scale-up threshold is that capacity at utilization 0.7 + 0.3 without the restart term, the scale-down
 *       threshold at 0.7 − 0.3 with it; a rate between them is within bounds and nothing is scaled
 *       ({@code ScalingExecutor.computeScalingSummary}).</li>
 *   <li>{@code JobVertexScaler.java}: new parallelism = ceil(current × capacity ÷ true processing rate), the factor
 *       within 1 − 0.6 and 1 + 100,000, aligned up to a divisor of the partitions (EVENLY_SPREAD); a scale-down waits
 *       the scale-down interval (1 hour) from its first trigger and then takes the highest recommendation within it
 *       ({@code DelayedScaleDown}); a scale-up that delivered under 10% of its expected gain is reported, and blocks
 *       the next one only when effectiveness detection is enabled (off by default).</li>
 *   <li>{@code config/AutoScalerOptions.java} for the defaults; the operator evaluates on each reconcile, every 60 s
 *       ({@code KubernetesOperatorConfigOptions.OPERATOR_RECONCILE_INTERVAL}).</li>
 * </ul>
 * The busy fraction is the running tasks' mean (Flink aggregates the busiest subtask, {@code metrics.busy-time.
 * aggregator} MAX); without one the rule cannot decide and holds, saying so. The restart is the rebalance: the job
 * runs again once its pause is over.
 */
public final class FlinkRule implements ScalingRule {

    public static final String NAME = "flink";

    /** Flink's options that the rule uses, with the release's defaults; time constants in milliseconds. */
    record Settings(
            double utilizationTarget,
            double utilizationBoundary,
            long metricsWindowMillis,
            long stabilizationMillis,
            long scaleDownIntervalMillis,
            double maxScaleDownFactor,
            double maxScaleUpFactor,
            long catchUpMillis,
            long restartMillis,
            long backlogLagThresholdMillis,
            long observedTprLagThresholdMillis,
            double observedTprSwitchThreshold,
            int observedTprMinObservations,
            boolean effectivenessDetection,
            double effectivenessThreshold,
            long controlLoopMillis) {

        static final Settings DEFAULTS = new Settings(
                0.7, 0.3, 900_000, 300_000, 3_600_000, 0.6, 100_000, 1_800_000, 300_000, 300_000, 30_000, 0.15, 2,
                false, 0.1, 60_000);

        Settings scaled(double timeScale) {
            return new Settings(
                    utilizationTarget,
                    utilizationBoundary,
                    Verdicts.scaled(metricsWindowMillis, timeScale),
                    Verdicts.scaled(stabilizationMillis, timeScale),
                    Verdicts.scaled(scaleDownIntervalMillis, timeScale),
                    maxScaleDownFactor,
                    maxScaleUpFactor,
                    Verdicts.scaled(catchUpMillis, timeScale),
                    Verdicts.scaled(restartMillis, timeScale),
                    Verdicts.scaled(backlogLagThresholdMillis, timeScale),
                    Verdicts.scaled(observedTprLagThresholdMillis, timeScale),
                    observedTprSwitchThreshold,
                    observedTprMinObservations,
                    effectivenessDetection,
                    effectivenessThreshold,
                    Verdicts.scaled(controlLoopMillis, timeScale));
        }
    }

    /**
     * One vertex's evaluated rates, as {@code ScalingMetricEvaluator} hands them to the scaler.
     *
     * @param targetDataRate the input it must keep up with, records/s
     * @param catchUpRate    the lag ÷ the catch-up duration, records/s
     * @param trueProcessingRate what the current parallelism would process when fully busy, records/s
     */
    record Evaluated(double targetDataRate, double catchUpRate, double trueProcessingRate, boolean processingBacklog) {}

    /** The scaler's answer for one vertex: its new parallelism and whether its rate lies outside the bounds. */
    record Change(int parallelism, boolean outsideUtilizationBound, double expectedProcessingRate) {}

    private static final String INPUT = "flink.input-rate";
    private static final String BUSY = "flink.busy";
    private static final String LAG = "flink.lag";
    private static final String OBSERVED_TPR = "flink.observed-tpr";
    private static final String SCALE_DOWNS = "flink.scale-down-recommendations";
    private static final String SCALE_DOWNS_OUTSIDE = "flink.scale-down-outside-bounds";
    private static final String LAST_TPR = "flink.last-scale-tpr";
    private static final String LAST_EXPECTED = "flink.last-scale-expected";
    /** The first sample since the window began: the window is full a whole window after it. */
    private static final String WINDOW_START = "flink.window-start";

    private final Settings settings;
    private final TaskBounds bounds;

    FlinkRule(TaskBounds bounds, Settings settings) {
        this.bounds = bounds;
        this.settings = settings;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long evaluationIntervalMillis() {
        return settings.controlLoopMillis();
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        DecisionInputs.Builder in = new DecisionInputs.Builder();
        in.busyFraction(o.busyFraction());
        if (o.busyFraction() == null) {
            return Verdicts.hold(
                    o,
                    "busy-unknown",
                    "the tasks' busy fraction is unknown (the workers' poll-idle-ratio-avg is not read): Flink's"
                            + " autoscaler sizes by busy time and cannot decide without it",
                    in);
        }
        long running = m.hasActed()
                ? m.lastActionAtMillis() + Math.round((m.lastPauseSeconds() == null ? 0 : m.lastPauseSeconds()) * 1000)
                : Long.MIN_VALUE;
        long stableFrom = running == Long.MIN_VALUE ? Long.MIN_VALUE : running + settings.stabilizationMillis();
        if (o.atMillis() < stableFrom) {
            forgetWindow(m);
            return Verdicts.hold(
                    o, "stabilizing", "stabilizing after the restart until " + stableFrom / 1000 + " s", in);
        }
        // a window begun before the restart's stable time starts again (the collector keeps only what follows it)
        PolicyMemory.Sample start = m.latest(WINDOW_START);
        if (start != null && start.atMillis() < stableFrom) {
            forgetWindow(m);
        }
        remember(o, m);
        // from the window's first sample, as the collector's getWindowFullTime: the oldest sample kept is never a
        // whole window old when samples do not fall exactly a window apart
        long collected = o.atMillis() - m.latest(WINDOW_START).atMillis();
        if (collected < settings.metricsWindowMillis()) {
            return Verdicts.hold(
                    o,
                    "collecting",
                    Verdicts.format(
                            "metric window not full: %.0f s of %.0f s collected",
                            collected / 1000.0, settings.metricsWindowMillis() / 1000.0),
                    in);
        }
        Evaluated e = evaluate(m);
        in.targetDataRate(e.targetDataRate());
        in.catchUpRate(e.catchUpRate());
        in.trueProcessingRate(e.trueProcessingRate());
        in.processingBacklog(e.processingBacklog());
        if (Double.isNaN(e.trueProcessingRate())) {
            return Verdicts.hold(o, "no-rate", "true processing rate not available", in);
        }
        int partitions = o.tasksWithPartitionsAtMost();
        Change c = scale(o.tasks(), e, partitions, bounds.minTasks(), bounds.maxTasks(), settings);
        in.recommendedTasks(c.parallelism());
        String why = Verdicts.format(
                "target %.0f/s + catch-up %.0f/s against a true processing rate of %.0f/s at %d tasks -> %d",
                e.targetDataRate(), e.catchUpRate(), e.trueProcessingRate(), o.tasks(), c.parallelism());
        if (c.parallelism() == o.tasks()) {
            forgetScaleDowns(m);
            return Verdicts.none(o, "within-target", why, in);
        }
        if (c.parallelism() < o.tasks()) {
            return delayedScaleDown(o, m, c, why, in);
        }
        forgetScaleDowns(m);
        if (!c.outsideUtilizationBound()) {
            return Verdicts.none(
                    o, "within-bounds", "the processing rate is within the utilization bounds: " + why, in);
        }
        if (ineffectiveLastScaleUp(o, m, e) && settings.effectivenessDetection()) {
            return Verdicts.of(
                    o,
                    Decision.Action.BLOCKED,
                    o.tasks(),
                    "ineffective-scaling",
                    "the last scale-up delivered under " + Math.round(settings.effectivenessThreshold() * 100)
                            + "% of its expected gain",
                    in);
        }
        in.expectedProcessingRate(c.expectedProcessingRate());
        return Verdicts.scaleTo(o, c.parallelism(), "busy-time", why, in);
    }

    /** Records what a scale it decided expects, so the next evaluation can judge its effect. */
    @Override
    public void applied(Decision decision, Double pauseSeconds, PolicyMemory memory) {
        ScalingRule.super.applied(decision, pauseSeconds, memory);
        forgetWindow(memory);
        forgetScaleDowns(memory);
        Double expected = decision.inputs().expectedProcessingRate();
        Double tpr = decision.inputs().trueProcessingRate();
        if (expected != null && tpr != null) {
            memory.remember(LAST_EXPECTED, decision.atMillis(), expected, 0);
            memory.remember(LAST_TPR, decision.atMillis(), tpr, 0);
        }
    }

    /**
     * {@code DelayedScaleDown}: a scale-down waits the interval from when it was first due, then takes the highest
     * recommendation within the interval, and acts only if that one lay outside the utilization bounds.
     */
    private Decision delayedScaleDown(Observation o, PolicyMemory m, Change c, String why, DecisionInputs.Builder in) {
        List<PolicyMemory.Sample> before = m.recall(SCALE_DOWNS);
        long firstTrigger = before.isEmpty() ? o.atMillis() : before.get(0).atMillis();
        // every recommendation since the first trigger counts: the interval is measured from it
        m.remember(SCALE_DOWNS, o.atMillis(), c.parallelism(), Long.MAX_VALUE / 2);
        m.remember(SCALE_DOWNS_OUTSIDE, o.atMillis(), c.outsideUtilizationBound() ? 1 : 0, Long.MAX_VALUE / 2);
        if (o.atMillis() - firstTrigger < settings.scaleDownIntervalMillis()) {
            return Verdicts.hold(
                    o,
                    "scale-down-delayed",
                    Verdicts.format(
                            "%s, delayed: %.0f s of the %.0f s scale-down interval since it was first due",
                            why, (o.atMillis() - firstTrigger) / 1000.0, settings.scaleDownIntervalMillis() / 1000.0),
                    in);
        }
        long windowStart = o.atMillis() - settings.scaleDownIntervalMillis();
        List<PolicyMemory.Sample> recommended = m.recall(SCALE_DOWNS);
        List<PolicyMemory.Sample> outside = m.recall(SCALE_DOWNS_OUTSIDE);
        int highest = 0;
        boolean highestOutside = false;
        for (int i = 0; i < recommended.size(); i++) {
            PolicyMemory.Sample r = recommended.get(i);
            if (r.atMillis() >= windowStart && r.value() >= highest) {
                highest = (int) r.value();
                highestOutside = outside.get(i).value() > 0;
            }
        }
        in.highestRecommendation(highest);
        String delayed = why
                + Verdicts.format(
                        " (the highest within the %.0f s interval: %d)",
                        settings.scaleDownIntervalMillis() / 1000.0, highest);
        if (highest >= o.tasks()) {
            return Verdicts.none(o, "within-target", delayed, in);
        }
        if (!highestOutside) {
            return Verdicts.none(
                    o, "within-bounds", "the processing rate is within the utilization bounds: " + delayed, in);
        }
        return Verdicts.scaleTo(o, highest, "busy-time", delayed, in);
    }

    private static void forgetScaleDowns(PolicyMemory m) {
        m.forget(SCALE_DOWNS);
        m.forget(SCALE_DOWNS_OUTSIDE);
    }

    private boolean ineffectiveLastScaleUp(Observation o, PolicyMemory m, Evaluated e) {
        PolicyMemory.Sample expected = m.latest(LAST_EXPECTED);
        PolicyMemory.Sample tpr = m.latest(LAST_TPR);
        if (expected == null || tpr == null || !m.hasActed() || expected.atMillis() != m.lastActionAtMillis()) {
            return false;
        }
        if (m.tasksAfterLastAction() <= m.tasksBeforeLastAction() || o.tasks() != m.tasksAfterLastAction()) {
            return false;
        }
        return (e.trueProcessingRate() - tpr.value()) / (expected.value() - tpr.value())
                < settings.effectivenessThreshold();
    }

    private void remember(Observation o, PolicyMemory m) {
        long keep = settings.metricsWindowMillis();
        if (m.latest(WINDOW_START) == null) {
            m.remember(
                    WINDOW_START, o.atMillis(), o.atMillis(), 0); // its one sample stays until the window is forgotten
        }
        m.remember(INPUT, o.atMillis(), o.sinkRate(), keep);
        m.remember(BUSY, o.atMillis(), o.busyFraction(), keep);
        m.remember(LAG, o.atMillis(), o.lag(), keep);
        double input = o.sinkRate();
        if (input == 0) {
            m.remember(OBSERVED_TPR, o.atMillis(), Double.POSITIVE_INFINITY, keep);
        } else if (o.lag() >= settings.observedTprLagThresholdMillis() / 1000.0 * input) {
            // a sink task is never back-pressured: what it consumed while catching up is what it can
            m.remember(OBSERVED_TPR, o.atMillis(), input, keep);
        }
    }

    private static void forgetWindow(PolicyMemory m) {
        m.forget(WINDOW_START);
        m.forget(INPUT);
        m.forget(BUSY);
        m.forget(LAG);
        m.forget(OBSERVED_TPR);
    }

    /** The window's metrics as {@code ScalingMetricEvaluator} evaluates a source vertex. */
    private Evaluated evaluate(PolicyMemory m) {
        List<PolicyMemory.Sample> inputs = m.recall(INPUT);
        List<PolicyMemory.Sample> lags = m.recall(LAG);
        double inputRate = average(inputs, 1);
        double busy = average(m.recall(BUSY), 1);
        PolicyMemory.Sample firstLag = lags.get(0);
        PolicyMemory.Sample lastLag = lags.get(lags.size() - 1);
        double lagRate =
                1000 * (lastLag.value() - firstLag.value()) / Math.max(1, lastLag.atMillis() - firstLag.atMillis());
        double targetRate = Math.max(0, inputRate + lagRate);
        double catchUp = settings.catchUpMillis() == 0 ? 0 : lastLag.value() / (settings.catchUpMillis() / 1000.0);
        double busyTpr = inputRate == 0 ? Double.POSITIVE_INFINITY : inputRate / busy;
        double observed = average(m.recall(OBSERVED_TPR), settings.observedTprMinObservations());
        double tpr = busyTpr;
        if (!Double.isNaN(observed)
                && (Double.isInfinite(busyTpr)
                        || Double.isNaN(busyTpr)
                        || busyTpr > observed * (1 + settings.observedTprSwitchThreshold()))) {
            tpr = observed;
        }
        boolean backlog = inputRate > 0 && lastLag.value() / inputRate > settings.backlogLagThresholdMillis() / 1000.0;
        return new Evaluated(targetRate, catchUp, tpr, backlog);
    }

    /** Flink's average of a metric over the window: infinite values count only when nothing finite was seen. */
    private static double average(List<PolicyMemory.Sample> samples, int minElements) {
        double sum = 0;
        int n = 0;
        boolean anyInfinite = false;
        for (PolicyMemory.Sample s : samples) {
            if (Double.isInfinite(s.value())) {
                anyInfinite = true;
            } else if (!Double.isNaN(s.value())) {
                sum += s.value();
                n++;
            }
        }
        if (n == 0) {
            return anyInfinite ? Double.POSITIVE_INFINITY : Double.NaN;
        }
        return n < minElements ? Double.NaN : sum / n;
    }

    /** {@code getTargetProcessingCapacity}: catch-up, restart catch-up and the target rate at a utilization. */
    static double targetCapacity(Evaluated e, double utilization, boolean withRestart, Settings s) {
        double catchUpSeconds = s.catchUpMillis() / 1000.0;
        double u = Math.min(1, Math.max(0, utilization));
        if (u == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double restartCatchUp = !withRestart || catchUpSeconds == 0
                ? 0
                : e.targetDataRate() * (s.restartMillis() / 1000.0) / catchUpSeconds;
        return Math.round(e.catchUpRate() + restartCatchUp + e.targetDataRate() / u);
    }

    /**
     * {@code JobVertexScaler.computeScaleTargetParallelism} and {@code scale} for a source vertex over
     * {@code partitions} partitions (0: none known, no alignment).
     */
    static Change scale(int current, Evaluated e, int partitions, int minTasks, int maxTasks, Settings s) {
        double capacity = targetCapacity(e, s.utilizationTarget(), true, s);
        double factor = capacity / e.trueProcessingRate();
        factor = Math.min(1 + s.maxScaleUpFactor(), Math.max(1 - s.maxScaleDownFactor(), factor));
        double expected = e.trueProcessingRate() * factor;
        int lower = Math.min(current, minTasks);
        int upper = Math.max(current, maxTasks);
        int upperBound = partitions > 0 ? Math.min(partitions, upper) : upper;
        int p = (int) Math.min(Math.ceil(factor * current), Integer.MAX_VALUE);
        p = Math.min(Math.max(lower, p), upperBound);
        if (partitions > 0 && p != current) {
            p = alignToPartitions(p, current, partitions, upperBound, lower);
        }
        double upperUtilization = e.processingBacklog() ? 1.0 : s.utilizationTarget() + s.utilizationBoundary();
        double lowerUtilization = e.processingBacklog() ? 0.0 : s.utilizationTarget() - s.utilizationBoundary();
        double scaleUpThreshold = targetCapacity(e, upperUtilization, false, s);
        double scaleDownThreshold = targetCapacity(e, lowerUtilization, true, s);
        boolean outside = e.trueProcessingRate() < scaleUpThreshold || e.trueProcessingRate() > scaleDownThreshold;
        return new Change(p, outside, expected);
    }

    /** EVENLY_SPREAD: the next divisor of the partitions upwards, else the least count that keeps each task's share. */
    private static int alignToPartitions(int p, int current, int partitions, int upperBound, int lower) {
        boolean up = p > current;
        int phase1Upper = up ? Math.min(partitions, upperBound) : Math.min(current, Math.min(partitions, upperBound));
        for (int q = p; q <= phase1Upper; q++) {
            if (partitions % q == 0) {
                return q;
            }
        }
        int q = p;
        for (; q > 0; q--) {
            if (partitions / q > partitions / p) {
                if (partitions % q != 0) {
                    q++;
                }
                break;
            }
        }
        q = Math.max(q, lower);
        if ((up && q <= current) || (!up && q >= current)) {
            return current;
        }
        return q;
    }
}
