package io.kcscale.scaler.loop;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.autoscale.AutoscaleEvaluator;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.ManualScaleRule;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.Recommendation;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.autoscale.StoredPolicy;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.ports.Leadership;
import io.kcscale.scaler.ports.PolicyStore;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.predict.WorkerPrediction;
import io.kcscale.scaler.scale.ScaleRequest;
import io.kcscale.scaler.scale.ScaleResult;
import java.time.Duration;
import java.util.ArrayList;
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

/**
 * Applies each connector's autoscale settings: every interval (or the rule's own, when longer) it hands the latest
 * snapshot (already in memory) to the {@link AutoscaleEvaluator} with the rule the policy names, and, on the leader
 * only, carries out a scale through the same scale action (and its rules) as a user's request. Policies, pauses and decisions live
 * in the {@link PolicyStore} every replica shares; the {@link Leadership} says which replica acts. A follower
 * decides too (for its recommendations) but neither acts nor records. The policies stay pure; what a policy
 * learned lives in memory, except its last action, which a new leader reads from the stored decisions.
 */
public final class AutoscaleLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AutoscaleLoop.class);
    private static final int DECISIONS_KEPT = 50;
    /** The outcome of a decision being applied: a leader that stops meanwhile leaves it for the next to settle. */
    static final String APPLYING = "applying";

    private final Function<String, Optional<PipelineSnapshot>> snapshots;
    private final Scale scale;
    private final PolicyStore store;
    private final Leadership leadership;
    private final Function<String, List<String>> blockingFindings;
    private final long intervalMillis;
    private final AutoscaleEvaluator evaluator;
    private final LongSupplier clock;
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    /** The lease under which this replica last wrote every policy's decisions again; the loop's thread only. */
    private Lease recordedUnder;

    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kcscale-autoscaler");
        t.setDaemon(true);
        return t;
    });

    /** One connector's policy version as this replica decides it. */
    private static final class Running {
        final StoredPolicy policy;
        final ScalingRule rule;
        final PolicyMemory memory;
        /** The latest evaluation's decision, repeated or not: what the recommendation gauge shows. */
        volatile Decision latest;
        /** A rule that evaluates less often than the loop runs (an HPA's 15 s sync) is asked only when due. */
        long nextEvaluationMillis = Long.MIN_VALUE;

        Running(StoredPolicy policy, PolicyMemory memory, long intervalMillis) {
            this.policy = policy;
            this.memory = memory;
            // validated again: a policy stored by an earlier version names no rule
            AutoscalePolicy settings = policy.policy().validated();
            this.rule = ScalingRules.create(settings.rule(), settings, intervalMillis);
        }
    }

    /** The scale a decision goes through: a user's, with the leader's fence on each of its writes. */
    @FunctionalInterface
    public interface Scale {
        ScaleResult scale(String connector, ScaleRequest request, WriteFence fence);
    }

    /** A connector's settings (named {@code policy} in the REST API) and its latest decisions, newest first. */
    public record State(
            String connector, AutoscalePolicy policy, long evaluationIntervalMillis, List<DecisionRecord> decisions) {}

    /**
     * @param snapshots        per connector, the latest snapshot (empty while not observed)
     * @param scale            the scale action a user's request goes through
     * @param blockingFindings per connector, the findings of checks that say more tasks cannot help
     * @param rebalanceDelay   what the scaler assumes of the workers' {@code scheduled.rebalance.max.delay.ms}
     */
    public AutoscaleLoop(
            Function<String, Optional<PipelineSnapshot>> snapshots,
            Scale scale,
            PolicyStore store,
            Leadership leadership,
            Function<String, List<String>> blockingFindings,
            long intervalMillis,
            Duration rebalanceDelay,
            LongSupplier clock) {
        this.snapshots = snapshots;
        this.scale = scale;
        this.store = store;
        this.leadership = leadership;
        this.evaluator = new AutoscaleEvaluator(rebalanceDelay);
        this.blockingFindings = blockingFindings;
        this.intervalMillis = intervalMillis;
        this.clock = clock;
    }

    /** Starts evaluating the stored policies. */
    public void start() {
        loop.scheduleWithFixedDelay(this::evaluateAll, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * Sets (or replaces) a connector's settings; stored before they take effect.
     *
     * @throws io.kcscale.scaler.input.InvalidInputException a bad field, an unknown rule, or a rule the targets do not
     *     suit (nothing is stored)
     */
    public State put(String connector, AutoscalePolicy settings) {
        AutoscalePolicy policy = settings.validated();
        ScalingRules.create(policy.rule(), policy, intervalMillis);
        return state(store.put(connector, policy));
    }

    public Optional<State> state(String connector) {
        return store.policy(connector).map(this::state);
    }

    private State state(StoredPolicy p) {
        return new State(p.connector(), p.policy(), intervalMillis, p.decisions());
    }

    /** Whether this replica holds the lease in force: it leads, and its writes count. */
    public boolean leads() {
        return leadership.lease().isPresent();
    }

    /** The replica whose lease is in force, as far as this one has read; empty before any claimed. */
    public Optional<String> leaderId() {
        return store.leader().map(Lease::leaderId);
    }

    /**
     * Whether a user's scale of {@code connector} may go ahead beside its policy, as {@link ManualScaleRule} judges
     * by the policy this replica sees; forced under an active policy, the policy is to be {@link #pause paused}.
     *
     * @return for a forced scale under an active policy, what it does to the policy, in words for the answer
     * @throws ScalerException {@link ScalerException.Problem#CONFLICT} under an active policy without {@code force}
     */
    public Optional<String> admitManualScale(String connector, boolean force, boolean dryRun) {
        ManualScaleRule.Verdict verdict =
                ManualScaleRule.judge(connector, store.policy(connector).map(StoredPolicy::policy), force, dryRun);
        if (verdict.refusal().isPresent()) {
            throw new ScalerException(
                    ScalerException.Problem.CONFLICT, verdict.refusal().get());
        }
        return verdict.note();
    }

    /**
     * Turns the active policy this replica sees into a dry run, keeping its decisions; nothing when it has none.
     * Only that version is paused: a DELETE or a PUT that lands first is not undone.
     */
    public void pause(String connector) {
        store.policy(connector).filter(p -> !p.policy().dryRun()).ifPresent(p -> store.pause(connector, p.version()));
    }

    /** Stops autoscaling a connector; false when it had no policy. */
    public boolean remove(String connector) {
        return store.remove(connector);
    }

    /**
     * One round, now (the loop's; tests call it to avoid waiting): on the leader, decides and acts for every policy
     * (under a lease new to it, first writes their decisions again); on a follower, only decides.
     */
    public void evaluateAll() {
        Optional<Lease> lease = leadership.lease();
        if (lease.isPresent() && !lease.get().equals(recordedUnder)) {
            recordUnder(lease.get());
        }
        List<StoredPolicy> policies = store.policies();
        running.keySet()
                .retainAll(policies.stream().map(StoredPolicy::connector).toList());
        for (StoredPolicy p : policies) {
            try {
                evaluate(p, lease);
            } catch (RuntimeException e) {
                LOG.warn("autoscaling {} failed", p.connector(), e);
            }
        }
    }

    /**
     * Writes every policy's decisions again under a lease this replica just claimed, so that the newest decisions
     * record of each connector follows the claim (what a replica reading the compacted log sees).
     */
    private void recordUnder(Lease lease) {
        for (StoredPolicy p : store.policies()) {
            store.recordDecisions(p.connector(), p.version(), lease, p.decisions());
        }
        recordedUnder = lease;
    }

    /**
     * What the connector's policy would set now, decided on a copy of what the policy carries so that
     * asking does not change its next evaluation; empty when it has no policy.
     *
     * @throws IllegalStateException when the connector is not observed or its pipeline is degraded (no tasks to recommend)
     */
    public Optional<Recommendation> recommend(String connector) {
        Optional<StoredPolicy> p = store.policy(connector);
        if (p.isEmpty()) {
            return Optional.empty();
        }
        Running r = running(p.get());
        PolicyMemory memory;
        synchronized (r.memory) {
            memory = r.memory.copy();
        }
        Decision d = decide(connector, r, memory);
        return Optional.of(Recommendation.of(connector, d, tasksPerWorker(connector), blockingFindings.apply(connector))
                .orElseThrow(() -> new IllegalStateException(d.reason())));
    }

    /** The workers the latest evaluation's tasks need, for the gauge beside {@link #latestRecommendedTasks}. */
    public Optional<Integer> latestRecommendedWorkers(String connector) {
        return latestRecommendedTasks(connector)
                .map(tasks -> WorkerPrediction.workersFor(tasks, tasksPerWorker(connector)));
    }

    private int tasksPerWorker(String connector) {
        return snapshots
                .apply(connector)
                .map(s -> Recommendation.tasksPerWorker(s.tasks()))
                .orElse(1);
    }

    /**
     * The tasks the latest evaluation would set, for the gauge; empty without a policy or an observed pipeline, and
     * at once when the policy is deleted or replaced (through any replica), not at the next evaluation.
     */
    public Optional<Integer> latestRecommendedTasks(String connector) {
        Running r = running.get(connector);
        Optional<StoredPolicy> p = store.policy(connector);
        Decision d = r == null || p.isEmpty() || p.get().version() != r.policy.version() ? null : r.latest;
        return d == null ? Optional.empty() : Optional.ofNullable(d.toTasks()).filter(tasks -> tasks >= 1);
    }

    /**
     * This replica's deciding state for the stored policy: kept while the version and the settings in force stay
     * (a pause keeps what the policy learned), else started over. Either way it takes the last action the stored
     * decisions hold when newer than its own, so that a follower that becomes leader keeps the cooldown.
     */
    private Running running(StoredPolicy p) {
        Running running = this.running.compute(p.connector(), (c, r) -> {
            if (r != null && r.policy.version() == p.version()) {
                return r.policy.policy().equals(p.policy()) ? r : new Running(p, r.memory, intervalMillis);
            }
            return new Running(p, new PolicyMemory(), intervalMillis);
        });
        synchronized (running.memory) {
            p.decisions().stream()
                    .filter(d -> d.outcome().startsWith("applied"))
                    .findFirst()
                    .filter(d ->
                            !running.memory.hasActed() || d.decision().atMillis() > running.memory.lastActionAtMillis())
                    .ifPresent(d -> running.memory.recordAction(
                            d.decision().atMillis(),
                            d.decision().fromTasks(),
                            d.decision().toTasks(),
                            null));
        }
        return running;
    }

    private Decision decide(String connector, Running r, PolicyMemory memory) {
        synchronized (memory) {
            return evaluator.evaluate(
                    connector,
                    snapshots.apply(connector),
                    blockingFindings.apply(connector),
                    r.rule,
                    memory,
                    clock.getAsLong());
        }
    }

    private void evaluate(StoredPolicy p, Optional<Lease> lease) {
        String connector = p.connector();
        Running r = running(p);
        if (lease.isPresent()
                && !p.decisions().isEmpty()
                && p.decisions().get(0).outcome().equals(APPLYING)) {
            settle(p, lease.get());
            return;
        }
        long now = clock.getAsLong();
        if (now < r.nextEvaluationMillis) {
            return;
        }
        r.nextEvaluationMillis = now + r.rule.evaluationIntervalMillis();
        Decision d = decide(connector, r, r.memory);
        r.latest = d;
        if (lease.isEmpty()) {
            return;
        }
        if (!d.scales()) {
            record(p, lease.get(), d, "none");
            return;
        }
        if (p.policy().dryRun()) {
            record(p, lease.get(), d, "dry run");
            return;
        }
        // the intent first: it counts only while this lease is in force and the policy is the version decided on
        Optional<StoredPolicy> intent = record(p, lease.get(), d, APPLYING);
        if (intent.isEmpty() || intent.get().policy().dryRun()) {
            return;
        }
        String outcome;
        try {
            ScaleResult result =
                    scale.scale(connector, new ScaleRequest(d.toTasks(), false, false), leadership.fence(lease.get()));
            synchronized (r.memory) {
                r.rule.applied(d, result.rebalancePauseSeconds(), r.memory);
            }
            outcome = "applied: " + result.tasksRunning() + " tasks RUNNING"
                    + (result.rebalancePauseSeconds() == null
                            ? ""
                            : ", pause " + result.rebalancePauseSeconds() + " s");
        } catch (ScalerException e) {
            outcome = (e.problem() == ScalerException.Problem.ABANDONED ? "abandoned: " : "failed: ") + e.getMessage();
            // an autoscaler that could not act says so where operators look, not only in its decisions
            if (e.problem() == ScalerException.Problem.ABANDONED) {
                LOG.warn("the scale of {} to {} tasks is {}", connector, d.toTasks(), outcome);
            } else {
                LOG.warn("the scale of {} to {} tasks failed: {}", connector, d.toTasks(), e.getMessage());
            }
        }
        // under a lease superseded meanwhile this does not count: the next leader settles the intent from Connect
        record(intent.get(), lease.get(), d, outcome);
    }

    /**
     * A decision a previous leader was applying when it stopped: never applied again, only recorded as what
     * Connect holds now (the next evaluation decides afresh from there).
     */
    private void settle(StoredPolicy p, Lease lease) {
        Optional<PipelineSnapshot> s = snapshots.apply(p.connector());
        if (s.isEmpty() || s.get().tasksMax() == null) {
            return;
        }
        Decision d = p.decisions().get(0).decision();
        int tasks = s.get().tasksMax();
        record(
                p,
                lease,
                d,
                tasks == d.toTasks()
                        ? "applied: tasks.max is " + tasks + " (by a leader that stopped before it recorded so)"
                        : "not applied: the leader stopped while applying it; tasks.max is " + tasks);
    }

    /**
     * Records a decision unless it repeats the previous verdict (a held or blocked state is reported once); an
     * outcome replaces the same decision's {@value #APPLYING}. The stored policy after, or empty when the write did
     * not count (a newer lease, or the policy changed).
     */
    private Optional<StoredPolicy> record(StoredPolicy p, Lease lease, Decision d, String outcome) {
        List<DecisionRecord> before = p.decisions();
        DecisionRecord last = before.isEmpty() ? null : before.get(0);
        if (last != null && d.repeats(last.decision()) && last.outcome().equals(outcome)) {
            return Optional.of(p);
        }
        List<DecisionRecord> after = new ArrayList<>(DECISIONS_KEPT);
        after.add(new DecisionRecord(d, outcome));
        // the same decision, read back from the store: its time and verdict identify it
        boolean replaces = last != null
                && last.outcome().equals(APPLYING)
                && last.decision().atMillis() == d.atMillis()
                && d.repeats(last.decision());
        after.addAll(
                before.subList(replaces ? 1 : 0, Math.min(before.size(), DECISIONS_KEPT - 1 + (replaces ? 1 : 0))));
        if (!store.recordDecisions(p.connector(), p.version(), lease, after)) {
            LOG.info("a decision for {} did not count: the lease or the policy changed", p.connector());
            return Optional.empty();
        }
        return store.policy(p.connector());
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
