package io.kcscale.scaler.autoscale;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.kcscale.scaler.act.ScaleAction;
import io.kcscale.scaler.act.ScaleException;
import io.kcscale.scaler.act.ScaleRequest;
import io.kcscale.scaler.act.ScaleResult;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.WorkerLoss;
import io.kcscale.scaler.observe.PipelineWatcher;

/**
 * Applies each connector's autoscale settings: every interval it turns the watcher's latest snapshot
 * (already in memory) into an {@link Observation}, asks the {@link RatioScalingPolicy}, and carries out
 * a scale through the same {@link ScaleAction} (and its rules) as a user's request. The policies stay
 * pure; the autoscaler's I/O is that scale action and the {@link PolicyStore}'s file, both reached
 * from here. Settings are persisted; what a policy learned and its decisions live in memory and start
 * over after a restart.
 */
public final class AutoscaleLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AutoscaleLoop.class);
    private static final int DECISIONS_KEPT = 50;

    private final PipelineWatcher watcher;
    private final ScaleAction scaleAction;
    private final PolicyStore store;
    private final Function<String, List<String>> blockingFindings;
    private final long intervalMillis;
    private final Duration rebalanceDelay;
    private final LongSupplier clock;
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kcscale-autoscaler");
        t.setDaemon(true);
        return t;
    });

    /** One connector under a policy. */
    private static final class Running {
        final AutoscaleSettings settings;
        final RatioScalingPolicy decider;
        final PolicyMemory memory = new PolicyMemory();
        final Deque<DecisionRecord> decisions = new ArrayDeque<>();
        /** The latest evaluation's decision, repeated or not: what the recommendation gauge shows. */
        volatile Decision latest;

        Running(AutoscaleSettings settings, long intervalMillis) {
            this.settings = settings;
            this.decider = new RatioScalingPolicy(settings, intervalMillis);
        }
    }

    /** A connector's settings (named {@code policy} in the REST API) and its latest decisions, newest first. */
    public record State(String connector, AutoscaleSettings policy, long evaluationIntervalMillis, List<DecisionRecord> decisions) {
    }

    /**
     * @param blockingFindings per connector, the findings of checks that say more tasks cannot help
     * @param rebalanceDelay   what the scaler assumes of the workers' {@code scheduled.rebalance.max.delay.ms}
     */
    public AutoscaleLoop(PipelineWatcher watcher, ScaleAction scaleAction, PolicyStore store,
                         Function<String, List<String>> blockingFindings, long intervalMillis, Duration rebalanceDelay,
                         LongSupplier clock) {
        this.rebalanceDelay = rebalanceDelay;
        this.watcher = watcher;
        this.scaleAction = scaleAction;
        this.store = store;
        this.blockingFindings = blockingFindings;
        this.intervalMillis = intervalMillis;
        this.clock = clock;
    }

    /** Resumes the persisted policies and starts evaluating. */
    public void start() {
        store.load().forEach((connector, settings) -> running.put(connector, new Running(settings, intervalMillis)));
        loop.scheduleWithFixedDelay(this::evaluateAll, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** Sets (or replaces) a connector's settings; persisted before they take effect. */
    public State put(String connector, AutoscaleSettings settings) {
        AutoscaleSettings valid = settings.validated();
        store.put(connector, valid);
        running.put(connector, new Running(valid, intervalMillis));
        return state(connector).orElseThrow();
    }

    public Optional<State> state(String connector) {
        Running r = running.get(connector);
        if (r == null) {
            return Optional.empty();
        }
        synchronized (r.decisions) {
            return Optional.of(new State(connector, r.settings, intervalMillis, new ArrayList<>(r.decisions)));
        }
    }

    /**
     * Whether a user's scale of {@code connector} may go ahead beside its policy. No policy, or one that only
     * decides (a dry run), lets it through. An active policy would undo it within an interval, so it is refused
     * (409, naming the policy) unless forced; forced, the policy is to be {@link #pause paused}.
     *
     * @return for a forced scale under an active policy, what it does to the policy, in words for the answer
     * @throws ScaleException {@link ScaleException.Kind#CONFLICT} under an active policy without {@code force}
     */
    public Optional<String> admitManualScale(String connector, boolean force, boolean dryRun) {
        Running r = running.get(connector);
        if (r == null || r.settings.dryRun()) {
            return Optional.empty();
        }
        String resource = "/api/v1/connectors/{name}/autoscale";
        if (!force) {
            throw new ScaleException(ScaleException.Kind.CONFLICT, connector + " is under an active autoscale policy ("
                    + r.settings.describe() + ") that would undo a manual scale: stop it (DELETE " + resource
                    + ", or kcscale autoscale " + connector + " --stop), or pass force to pause it and scale");
        }
        return Optional.of((dryRun ? "would pause" : "paused") + " the autoscale policy of " + connector + " ("
                + r.settings.describe() + "): it keeps deciding as a dry run and changes nothing; PUT " + resource
                + " with dryRun false to resume it");
    }

    /** Turns an active policy into a dry run (persisted), keeping its decisions; nothing when it has none. */
    public void pause(String connector) {
        Running r = running.get(connector);
        if (r == null || r.settings.dryRun()) {
            return;
        }
        AutoscaleSettings paused = r.settings.paused();
        store.put(connector, paused);
        Running replaced = new Running(paused, intervalMillis);
        synchronized (r.decisions) {
            replaced.decisions.addAll(r.decisions);
        }
        running.put(connector, replaced);
    }

    /** Stops autoscaling a connector; false when it had no policy. */
    public boolean remove(String connector) {
        boolean known = running.remove(connector) != null;
        return store.remove(connector) || known;
    }

    /** One evaluation of every connector, now (the loop's round; tests call it to avoid waiting). */
    public void evaluateAll() {
        for (String connector : List.copyOf(running.keySet())) {
            try {
                evaluate(connector);
            } catch (RuntimeException e) {
                LOG.warn("autoscaling {} failed", connector, e);
            }
        }
    }

    /**
     * What the connector's policy would set now, decided on a copy of what the policy carries so that
     * asking does not change its next evaluation; empty when it has no policy.
     *
     * @throws IllegalStateException when the connector is not observed or its pipeline is degraded (no tasks to recommend)
     */
    public Optional<Recommendation> recommend(String connector) {
        Running r = running.get(connector);
        if (r == null) {
            return Optional.empty();
        }
        PolicyMemory memory;
        synchronized (r.memory) {
            memory = r.memory.copy();
        }
        Decision d = decide(connector, r, memory);
        return Optional.of(Recommendation.of(connector, d, blockingFindings.apply(connector))
                .orElseThrow(() -> new IllegalStateException(d.reason())));
    }

    /** The tasks the latest evaluation would set, for the gauge; empty without a policy or an observed pipeline. */
    public Optional<Integer> latestRecommendedTasks(String connector) {
        Running r = running.get(connector);
        Decision d = r == null ? null : r.latest;
        return d == null || d.toTasks() < 1 ? Optional.empty() : Optional.of(d.toTasks());
    }

    private Decision decide(String connector, Running r, PolicyMemory memory) {
        Optional<PipelineSnapshot> snapshot = watcher.snapshot(connector);
        long now = clock.getAsLong();
        if (snapshot.isEmpty() || snapshot.get().degraded()) {
            return new Decision(now, Decision.Action.HOLD, -1, -1, "unobserved", snapshot.isEmpty()
                    ? connector + " is not observed (yet)" : "the pipeline is degraded: " + snapshot.get().unreachable(), Map.of());
        }
        Optional<Decision> held = workerHold(snapshot.get(), rebalanceDelay, now);
        if (held.isPresent()) {
            return held.get();
        }
        Observation o = Observation.of(snapshot.get(), blockingFindings.apply(connector), now);
        synchronized (memory) {
            return r.decider.decide(o, memory);
        }
    }

    /**
     * A hold, before any policy (its bounds included), while a worker of the connector does not answer or a task
     * waits unassigned: Connect gives such tasks to live workers only after its reassignment delay, and a scale
     * meanwhile would act on tasks that do not run and add a rebalance to the wait. Pure.
     */
    static Optional<Decision> workerHold(PipelineSnapshot s, Duration rebalanceDelay, long now) {
        int tasks = s.tasksMax() != null ? s.tasksMax() : s.tasks().size();
        WorkerLoss loss = WorkerLoss.of(s);
        if (!loss.none()) {
            return Optional.of(new Decision(now, Decision.Action.HOLD, tasks, tasks, "worker-unreachable", loss.describe()
                    + ": no scale until Connect gives its tasks to the live workers; " + loss.reassignment(rebalanceDelay),
                    Map.of("unreachableWorkers", loss.workers())));
        }
        List<Integer> unassigned = s.tasks().stream().filter(t -> "UNASSIGNED".equals(t.state())).map(PipelineSnapshot.Task::id).toList();
        if (!unassigned.isEmpty()) {
            return Optional.of(new Decision(now, Decision.Action.HOLD, tasks, tasks, "tasks-unassigned", "tasks " + unassigned
                    + " are UNASSIGNED: no scale until Connect assigns them (after a worker left, it waits up to"
                    + " scheduled.rebalance.max.delay.ms, assumed " + rebalanceDelay.toSeconds() + " s)", Map.of()));
        }
        return Optional.empty();
    }

    private void evaluate(String connector) {
        Running r = running.get(connector);
        if (r == null) {
            return;
        }
        Decision d = decide(connector, r, r.memory);
        r.latest = d;
        if (d.toTasks() < 1) {
            record(r, d, "none");
            return;
        }
        if (!d.scales()) {
            record(r, d, "none");
            return;
        }
        if (r.settings.dryRun()) {
            record(r, d, "dry run");
            return;
        }
        try {
            ScaleResult result = scaleAction.scale(connector, new ScaleRequest(d.toTasks(), false, false));
            synchronized (r.memory) {
                r.decider.applied(d, result.rebalancePauseSeconds(), r.memory);
            }
            record(r, d, "applied: " + result.tasksRunning() + " tasks RUNNING"
                    + (result.rebalancePauseSeconds() == null ? "" : ", pause " + result.rebalancePauseSeconds() + " s"));
        } catch (ScaleException e) {
            record(r, d, "failed: " + e.getMessage());
        }
    }

    /** Keeps a decision unless it repeats the previous verdict: a held or blocked state is reported once. */
    private static void record(Running r, Decision d, String outcome) {
        synchronized (r.decisions) {
            DecisionRecord last = r.decisions.peekFirst();
            if (last != null && d.repeats(last.decision()) && last.outcome().equals(outcome)) {
                return;
            }
            r.decisions.addFirst(new DecisionRecord(d, outcome));
            while (r.decisions.size() > DECISIONS_KEPT) {
                r.decisions.removeLast();
            }
        }
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
