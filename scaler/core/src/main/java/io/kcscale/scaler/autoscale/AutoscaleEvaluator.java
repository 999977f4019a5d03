package io.kcscale.scaler.autoscale;

import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.WorkerLoss;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The one decision path from what the scaler observes of a connector to a decision: the holds that come before any
 * rule (not observed, degraded, a worker silent, a task unassigned), then the rule the policy names on the observation.
 * The live autoscaler, the simulator and the live benchmark all decide through it, so what the lab measures is what
 * production decides. Pure: the caller owns the clock, the systems and the rule's {@link PolicyMemory}.
 */
public final class AutoscaleEvaluator {

    private final Duration rebalanceDelay;

    /** @param rebalanceDelay what the workers' {@code scheduled.rebalance.max.delay.ms} is taken to be */
    public AutoscaleEvaluator(Duration rebalanceDelay) {
        this.rebalanceDelay = rebalanceDelay;
    }

    /**
     * @param snapshot         the connector now, or empty while it is not observed
     * @param blockingFindings the findings of checks that say more tasks cannot help
     * @param memory           what the rule learned from earlier evaluations of this policy; the rule updates it
     */
    public Decision evaluate(
            String connector,
            Optional<PipelineSnapshot> snapshot,
            List<String> blockingFindings,
            ScalingRule rule,
            PolicyMemory memory,
            long nowMillis) {
        if (snapshot.isEmpty() || snapshot.get().degraded()) {
            return Decision.unobserved(
                    nowMillis,
                    snapshot.isEmpty()
                            ? connector + " is not observed (yet)"
                            : "the pipeline is degraded: " + snapshot.get().unreachable());
        }
        Optional<Decision> held = workerHold(snapshot.get(), rebalanceDelay, nowMillis);
        if (held.isPresent()) {
            return held.get();
        }
        return rule.decide(Observation.of(snapshot.get(), blockingFindings, nowMillis), memory);
    }

    /**
     * A hold, before any rule (its bounds included), while a worker of the connector does not answer or a task waits
     * unassigned: Connect gives such tasks to live workers only after its reassignment delay, and a scale meanwhile
     * would act on tasks that do not run and add a rebalance to the wait.
     */
    static Optional<Decision> workerHold(PipelineSnapshot s, Duration rebalanceDelay, long now) {
        int tasks = s.tasksMax() != null ? s.tasksMax() : s.tasks().size();
        WorkerLoss loss = WorkerLoss.of(s);
        if (!loss.none()) {
            return Optional.of(new Decision(
                    now,
                    Decision.Action.HOLD,
                    tasks,
                    tasks,
                    "worker-unreachable",
                    loss.describe() + ": no scale until Connect gives its tasks to the live workers; "
                            + loss.reassignment(rebalanceDelay),
                    new DecisionInputs.Builder()
                            .unreachableWorkers(loss.workers())
                            .build()));
        }
        List<Integer> unassigned = s.tasks().stream()
                .filter(t -> "UNASSIGNED".equals(t.state()))
                .map(PipelineSnapshot.Task::id)
                .toList();
        if (!unassigned.isEmpty()) {
            return Optional.of(new Decision(
                    now,
                    Decision.Action.HOLD,
                    tasks,
                    tasks,
                    "tasks-unassigned",
                    "tasks " + unassigned
                            + " are UNASSIGNED: no scale until Connect assigns them (after a worker left, it waits up to"
                            + " scheduled.rebalance.max.delay.ms, assumed " + rebalanceDelay.toSeconds() + " s)",
                    DecisionInputs.NONE));
        }
        return Optional.empty();
    }
}
