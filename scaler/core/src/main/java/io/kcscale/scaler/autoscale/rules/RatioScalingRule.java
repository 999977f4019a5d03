package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import java.util.Locale;

/**
 * The toolkit's rule ({@code kcscale}): sizes tasks in one step from rates and measured per-task
 * capacity (new tasks ≈ append rate / per-task capacity, with headroom, plus what drains the backlog
 * above target in {@code drainSeconds}), capped by partitions and {@code maxTasks}; scales up when the lag in records
 * exceeds its target or the oldest unconsumed record's age exceeds {@code targetLagSeconds}; waits out
 * instability and cooldowns; refuses, once, when checks or a saturated sink say tasks cannot help;
 * scales down only after tasks were mostly idle for a whole cooldown.
 *
 * <p>The window's append rate trails a load step by up to a whole window, which would size the first
 * scale-up too small and need a second one (a second rebalance): scale-ups take the append rate as at
 * least the sink rate plus the lag's growth since the previous evaluation, and count the records the scale's own
 * rebalance pause (the last one measured) will add to the backlog.
 *
 * <p>Per-task capacity is measured, not guessed: from the tasks' busy time where the workers' metrics give it (records/s
 * ÷ busy fraction, Flink's true processing rate), else from what a task consumed while a backlog kept it saturated.
 * After each scale-up the rule compares the sink rate it expected (tasks × capacity) with the one it got: a scale-up
 * that delivered less than half the expected gain blocks the next one, saying both, until the evidence changes (the
 * rate rises, or another action was taken). Unless the tasks' busy time is skewed: one task near its limit while the
 * median task at most three quarters as busy is a hot key or partition, not a saturated sink, and the rule adds tasks until
 * the busiest holds half its partitions, then says when it holds one.
 */
public final class RatioScalingRule implements ScalingRule {

    /** A scale-up that raised throughput by less than this share of the expected gain saturated the sink. */
    private static final double SATURATION_GAIN = 0.5;
    /** Below this busy fraction a task's capacity (rate ÷ busy) is mostly noise: too little traffic to time. */
    private static final double MIN_BUSY_TO_MEASURE = 0.2;
    /** A task this busy, with the median task at most {@link #SKEW_MEDIAN_SHARE} of it, holds the load back alone. */
    private static final double SKEWED_BUSY = 0.9;

    private static final double SKEW_MEDIAN_SHARE = 0.75;
    /** Rates are measured to about this share: a need this close above a whole number of tasks rounds down to it. */
    private static final double RATE_PRECISION = 0.01;

    private final AutoscalePolicy settings;
    private final long intervalMillis;

    public RatioScalingRule(AutoscalePolicy settings, long intervalMillis) {
        this.settings = settings.validated();
        this.intervalMillis = intervalMillis;
    }

    @Override
    public String name() {
        return "kcscale";
    }

    @Override
    public long evaluationIntervalMillis() {
        return intervalMillis;
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        try {
            return decideNow(o, m);
        } finally {
            m.observe(o);
        }
    }

    private Decision decideNow(Observation o, PolicyMemory m) {
        double allowedLag = settings.allowedLag(Math.max(o.appendRate(), o.sinkRate()));
        double cooldown = settings.cooldownSeconds(m.lastPauseSeconds());
        DecisionInputs.Builder in = inputs(o, allowedLag, cooldown);
        if (m.hasActed() && o.atMillis() - m.lastActionAtMillis() < cooldown * 1000) {
            return hold(
                    o,
                    in,
                    "cooldown",
                    String.format(
                            Locale.ROOT,
                            "cooling down: %.0f s of %.0f s since the last change",
                            (o.atMillis() - m.lastActionAtMillis()) / 1000.0,
                            cooldown));
        }
        if (o.tasks() < settings.minTasks()) {
            return scale(
                    o,
                    in,
                    Decision.Action.SCALE_UP,
                    settings.minTasks(),
                    "bounds",
                    "below minTasks " + settings.minTasks());
        }
        if (o.tasks() > settings.maxTasks()) {
            return scale(
                    o,
                    in,
                    Decision.Action.SCALE_DOWN,
                    settings.maxTasks(),
                    "bounds",
                    "above maxTasks " + settings.maxTasks());
        }
        if (!o.stable()) {
            return hold(
                    o,
                    in,
                    "unstable",
                    "the pipeline is not stable (" + String.join("; ", o.unstableReasons())
                            + "): scaling now would hide the cause");
        }
        boolean ageOver = settings.ageOverTarget(o.lagSeconds());
        if (o.busyFraction() != null && o.busyFraction() >= MIN_BUSY_TO_MEASURE && o.tasksRunning() > 0) {
            // the true processing rate: what a task would do if it were busy all the time
            m.learnCapacity(o.perTaskRate() / Math.min(1, o.busyFraction()));
            in.capacityFrom(DecisionInputs.CapacitySource.BUSY_TIME);
        } else if ((o.lag() > allowedLag || ageOver) && o.lag() > o.sinkRate() && o.tasksRunning() > 0) {
            // with a backlog the tasks consume as fast as they can: their rate is their capacity
            m.learnCapacity(o.perTaskRate());
            in.capacityFrom(DecisionInputs.CapacitySource.BACKLOG);
        }
        double capacity = m.perTaskCapacity();
        in.perTaskCapacity(capacity);
        if (o.lag() > allowedLag || ageOver) {
            return scaleUp(o, m, in, allowedLag, capacity);
        }
        return scaleDownOrSteady(o, m, in, allowedLag, capacity, cooldown);
    }

    private Decision scaleUp(
            Observation o, PolicyMemory m, DecisionInputs.Builder in, double allowedLag, double capacity) {
        double append = appendRateNow(o, m.lastObservation());
        in.appendRateNow(append);
        boolean lagOver = o.lag() > allowedLag;
        // over the age target alone no record is above the records target: the sizing rests on the append rate
        double excess = Math.max(0, o.lag() - allowedLag);
        String over = lagOver
                ? String.format(Locale.ROOT, "lag %d above target %.0f", o.lag(), allowedLag)
                : String.format(
                        Locale.ROOT,
                        "lag age %.0f s above targetLagSeconds %.0f",
                        o.lagSeconds(),
                        settings.targetLagSeconds());
        if (o.sinkRate() > append && excess < (o.sinkRate() - append) * settings.drainSeconds()) {
            return decision(
                    o,
                    in,
                    Decision.Action.NONE,
                    o.tasks(),
                    "draining",
                    String.format(
                            Locale.ROOT,
                            "%s but draining at %.1f/s: %s",
                            over,
                            o.sinkRate() - append,
                            lagOver
                                    ? String.format(
                                            Locale.ROOT, "within target in %.0f s", excess / (o.sinkRate() - append))
                                    : "the age falls as the backlog drains"));
        }
        if (!o.blockingFindings().isEmpty()) {
            return decision(
                    o,
                    in,
                    Decision.Action.BLOCKED,
                    o.tasks(),
                    "checks",
                    "more tasks cannot help: " + String.join("; ", o.blockingFindings()));
        }
        if (o.sinkRejecting()) {
            return decision(
                    o,
                    in,
                    Decision.Action.BLOCKED,
                    o.tasks(),
                    "sink-rejecting",
                    "Elasticsearch rejects or queues writes: the sink, not the connector, must grow");
        }
        if (saturatedByLastScaleUp(o, m) && !skewed(o)) {
            return decision(
                    o,
                    in,
                    Decision.Action.BLOCKED,
                    o.tasks(),
                    "sink-saturated",
                    String.format(
                            Locale.ROOT,
                            "the sink is saturated: %d tasks gave %.1f/s, %d tasks give %.1f/s where %.1f/s was expected"
                                    + " (less than half the expected gain); grow Elasticsearch (shards, nodes) or use bulk"
                                    + " requests",
                            m.tasksBeforeLastAction(),
                            m.sinkRateBeforeLastAction(),
                            o.tasks(),
                            o.sinkRate(),
                            expectedSinkRate(m)));
        }
        // the scale's own rebalance pause adds its arrivals to the backlog the new tasks must drain
        double pause = m.lastPauseSeconds() == null ? 0 : m.lastPauseSeconds();
        excess += append * pause;
        in.pauseSeconds(pause);
        // the headroom drains the backlog too: add capacity only when it would not within drainSeconds
        double need = Math.max(append / settings.utilization(), append + excess / settings.drainSeconds());
        int desired = tasksFor(need, capacity);
        int cap = Math.min(settings.maxTasks(), o.tasksWithPartitionsAtMost());
        String skew = "";
        if (skewed(o)) {
            Observation.TaskLoad load = o.taskLoad();
            in.busiestTaskBusy(load.busiest());
            in.medianTaskBusy(load.median());
            in.busiestTaskPartitions(load.busiestPartitions());
            if (load.busiestPartitions() <= 1) {
                return decision(
                        o,
                        in,
                        Decision.Action.BLOCKED,
                        o.tasks(),
                        "skew",
                        String.format(
                                Locale.ROOT,
                                "%s, and the busiest task, %.0f%% busy with one partition where the median task is %.0f%%,"
                                        + " holds the load back: a hot key or partition, which more tasks cannot split"
                                        + " (spread the key, or give the topic more partitions)",
                                over,
                                load.busiest() * 100,
                                load.median() * 100));
            }
            int split = splitting(o.tasksWithPartitionsAtMost(), load.busiestPartitions());
            if (split > desired) {
                desired = split;
                skew = String.format(
                        Locale.ROOT,
                        "; the busiest task is %.0f%% busy with %d partitions where the median task is %.0f%%: %d tasks"
                                + " give it at most %d",
                        load.busiest() * 100,
                        load.busiestPartitions(),
                        load.median() * 100,
                        split,
                        (load.busiestPartitions() + 1) / 2);
            }
        }
        in.desiredTasks(desired);
        if (!lagOver && !Double.isNaN(capacity) && desired <= o.tasks()) {
            return decision(
                    o,
                    in,
                    Decision.Action.NONE,
                    o.tasks(),
                    "age",
                    String.format(
                            Locale.ROOT,
                            "%s, yet the rates need no more than %d tasks (%.1f/s appended): more tasks would not consume it sooner"
                                    + " (lag.verdict says whether a partition is stalled or stopped)",
                            over,
                            o.tasks(),
                            append));
        }
        String sizing = String.format(
                        Locale.ROOT,
                        "%s: %.1f/s appended, %.1f/s per task, backlog drained in %.0f s -> %d tasks",
                        over,
                        append,
                        capacity,
                        settings.drainSeconds(),
                        desired)
                + skew;
        String partitionAdvice = desired > o.tasksWithPartitionsAtMost()
                ? "; give the topics partitions for " + desired + " tasks (one topic: at least " + desired
                        + "; adding partitions re-maps keys)"
                : "";
        if (Math.min(desired, cap) <= o.tasks()) {
            return decision(
                    o,
                    in,
                    Decision.Action.BLOCKED,
                    o.tasks(),
                    "capped",
                    sizing + ", but capped at " + cap + " (maxTasks " + settings.maxTasks() + "; "
                            + o.tasksWithPartitionsAtMost() + " tasks can get a partition)" + partitionAdvice);
        }
        int to = Math.min(desired, cap);
        in.expectedSinkRate(Math.min(append + excess / settings.drainSeconds(), to * capacity));
        return scale(
                o,
                in,
                Decision.Action.SCALE_UP,
                to,
                "lag",
                sizing + (to < desired ? " (capped at " + cap + partitionAdvice + ")" : ""));
    }

    /** Nothing to do: the tasks are not idle long enough to count toward a scale-down. */
    private static Decision steady(Observation o, PolicyMemory m, DecisionInputs.Builder in, String reason) {
        m.notIdle();
        return decision(o, in, Decision.Action.NONE, o.tasks(), "steady", reason);
    }

    private Decision scaleDownOrSteady(
            Observation o,
            PolicyMemory m,
            DecisionInputs.Builder in,
            double allowedLag,
            double capacity,
            double cooldown) {
        if (Double.isNaN(capacity) || o.tasksRunning() == 0) {
            return steady(
                    o,
                    m,
                    in,
                    String.format(
                            Locale.ROOT,
                            "lag %d within target %.0f (per-task capacity not measured yet: it is learned under backlog)",
                            o.lag(),
                            allowedLag));
        }
        double idle = 1 - Math.min(1, o.sinkRate() / (o.tasksRunning() * capacity));
        in.idleFraction(idle);
        int desired = Math.max(settings.minTasks(), tasksFor(o.appendRate() / settings.utilization(), capacity));
        if (idle <= settings.scaleDownIdleFraction() || desired >= o.tasks()) {
            return steady(
                    o,
                    m,
                    in,
                    String.format(
                            Locale.ROOT,
                            "lag %d within target %.0f; tasks %.0f%% idle",
                            o.lag(),
                            allowedLag,
                            idle * 100));
        }
        if (m.idleSinceMillis() == Long.MIN_VALUE) {
            m.idleSince(o.atMillis());
        }
        if (o.atMillis() - m.idleSinceMillis() < cooldown * 1000) {
            return hold(
                    o,
                    in,
                    "idle-wait",
                    String.format(
                            Locale.ROOT,
                            "tasks %.0f%% idle (over %.0f%%): scaling down to %d once that lasts a whole cooldown of %.0f s",
                            idle * 100,
                            settings.scaleDownIdleFraction() * 100,
                            desired,
                            cooldown));
        }
        return scale(
                o,
                in,
                Decision.Action.SCALE_DOWN,
                desired,
                "idle",
                String.format(
                        Locale.ROOT,
                        "tasks %.0f%% idle for %.0f s: %.1f/s appended needs %d tasks at %.0f%% of %.1f/s each",
                        idle * 100,
                        (o.atMillis() - m.idleSinceMillis()) / 1000.0,
                        o.appendRate(),
                        desired,
                        settings.utilization() * 100,
                        capacity));
    }

    /** The tasks that serve {@code need} records/s at {@code capacity} each, within the rates' precision. */
    private static int tasksFor(double need, double capacity) {
        return (int) Math.min(Integer.MAX_VALUE, Math.ceil(need * (1 - RATE_PRECISION) / capacity));
    }

    /**
     * Records/s appended now: the window's average, or more when lag grew faster since {@code previous}
     * than that average explains (what the sink consumed plus the lag's growth).
     */
    static double appendRateNow(Observation o, Observation previous) {
        if (previous == null || o.atMillis() <= previous.atMillis()) {
            return o.appendRate();
        }
        double lagGrowth = (o.lag() - previous.lag()) * 1000.0 / (o.atMillis() - previous.atMillis());
        return Math.max(o.appendRate(), o.sinkRate() + lagGrowth);
    }

    /**
     * The last action added tasks, and throughput gained less than half of what was expected of it (the tasks at the
     * capacity measured then; linear scaling of the rate before when none was).
     */
    private static boolean saturatedByLastScaleUp(Observation o, PolicyMemory m) {
        if (!m.hasActed()
                || m.tasksAfterLastAction() <= m.tasksBeforeLastAction()
                || o.tasks() != m.tasksAfterLastAction()
                || Double.isNaN(m.sinkRateBeforeLastAction())
                || m.tasksBeforeLastAction() == 0) {
            return false;
        }
        double before = m.sinkRateBeforeLastAction();
        return o.sinkRate() < before + SATURATION_GAIN * (expectedSinkRate(m) - before);
    }

    /**
     * One task far busier than the rest: the median task at most three quarters as busy as the busiest, which is near its
     * limit. More tasks then help by splitting the busiest task's partitions, whatever the mean capacity says; and a
     * scale-up that gained little says so of the skew, not of the sink.
     */
    private static boolean skewed(Observation o) {
        Observation.TaskLoad load = o.taskLoad();
        return load != null
                && o.tasksRunning() > 1
                && load.busiest() >= SKEWED_BUSY
                && load.median() <= load.busiest() * SKEW_MEDIAN_SHARE;
    }

    /**
     * The tasks that leave each at most half of the busiest task's partitions, as the group deals them: with
     * {@code dealt} partitions over n tasks the fullest holds ceil(dealt / n).
     */
    private static int splitting(int dealt, int busiestPartitions) {
        int half = (busiestPartitions + 1) / 2;
        return (dealt + half - 1) / half;
    }

    /** What the last scale-up was expected to give: its tasks at the capacity then, or the rate before scaled linearly. */
    private static double expectedSinkRate(PolicyMemory m) {
        double capacity = m.capacityAtLastAction();
        return Double.isNaN(capacity)
                ? m.sinkRateBeforeLastAction() * m.tasksAfterLastAction() / m.tasksBeforeLastAction()
                : m.tasksAfterLastAction() * capacity;
    }

    private DecisionInputs.Builder inputs(Observation o, double allowedLag, double cooldown) {
        return new DecisionInputs.Builder()
                .tasks(o.tasks())
                .tasksRunning(o.tasksRunning())
                .tasksWithPartitionsAtMost(o.tasksWithPartitionsAtMost())
                .appendRate(o.appendRate())
                .sinkRate(o.sinkRate())
                .perTaskRate(o.perTaskRate())
                .lag(o.lag())
                .allowedLag(allowedLag)
                .lagSeconds(o.lagSeconds())
                .targetLagSeconds(settings.targetLagSeconds())
                .latencySeconds(o.latencySeconds())
                .cooldownSeconds(cooldown)
                .stable(o.stable())
                .findings(o.blockingFindings());
    }

    private static Decision hold(Observation o, DecisionInputs.Builder in, String code, String reason) {
        return decision(o, in, Decision.Action.HOLD, o.tasks(), code, reason);
    }

    private static Decision scale(
            Observation o, DecisionInputs.Builder in, Decision.Action action, int to, String code, String reason) {
        return decision(o, in, action, to, code, reason);
    }

    private static Decision decision(
            Observation o, DecisionInputs.Builder in, Decision.Action action, int to, String code, String reason) {
        return new Decision(o.atMillis(), action, o.tasks(), to, code, reason, in.build());
    }
}
