package io.kcscale.scaler.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The workers of a connector that do not answer, and its tasks on them: what the stability check, the
 * autoscaler and a scale judge a lost worker by. Pure.
 *
 * <p>Connect notices a worker that died (kill -9, a lost host) only once its group's session timeout has passed,
 * and then, with incremental cooperative rebalancing, keeps its tasks for it for up to
 * {@code scheduled.rebalance.max.delay.ms} in case it comes back; all that time it reports them as the dead
 * worker last wrote them, RUNNING.
 *
 * @param workers each unanswering worker with the seconds it has not answered, by worker id
 * @param tasks   the tasks on them, by worker id
 */
public record WorkerLoss(Map<String, Long> workers, Map<String, List<Integer>> tasks) {

    /**
     * Connect's default {@code session.timeout.ms} for its workers' group: how long the group takes to notice a dead
     * worker before the reassignment delay starts.
     */
    public static final Duration CONNECT_SESSION_TIMEOUT = Duration.ofSeconds(10);

    /** No worker lost (nothing observed yet counts as none: other rules speak for that). */
    public static final WorkerLoss NONE = new WorkerLoss(Map.of(), Map.of());

    public static WorkerLoss of(PipelineSnapshot snapshot) {
        Map<String, List<Integer>> tasks = new TreeMap<>();
        snapshot.unreachableWorkers().keySet().forEach(w -> tasks.put(w, new ArrayList<>()));
        for (PipelineSnapshot.Task t : snapshot.tasks()) {
            List<Integer> on = tasks.get(t.workerId());
            if (on != null) {
                on.add(t.id());
            }
        }
        return new WorkerLoss(new TreeMap<>(snapshot.unreachableWorkers()), tasks);
    }

    /** No worker of the connector is lost. */
    public boolean none() {
        return workers.isEmpty();
    }

    /** Only the workers among {@code silent}: those still not answering. */
    public WorkerLoss still(Set<String> silent) {
        Map<String, Long> kept = new TreeMap<>(workers);
        kept.keySet().retainAll(silent);
        Map<String, List<Integer>> on = new TreeMap<>(tasks);
        on.keySet().retainAll(silent);
        return new WorkerLoss(kept, on);
    }

    /** "worker W has not answered for 12 s (tasks [1] on it)", one clause per worker. */
    public String describe() {
        List<String> clauses = new ArrayList<>();
        workers.forEach((worker, seconds) -> {
            List<Integer> on = tasks.getOrDefault(worker, List.of());
            clauses.add("worker " + worker + " has not answered for " + seconds + " s ("
                    + (on.isEmpty() ? "the connector on it" : "tasks " + on + " on it") + ")");
        });
        return String.join("; ", clauses);
    }

    /**
     * When Connect should give the lost workers' tasks to the live ones, from the longest silence: once its group has
     * missed a worker for the session timeout and then {@code rebalanceDelay} (what the scaler assumes Connect's
     * {@code scheduled.rebalance.max.delay.ms} to be).
     */
    public String reassignment(Duration rebalanceDelay) {
        long silent = workers.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long due = CONNECT_SESSION_TIMEOUT.plus(rebalanceDelay).toSeconds();
        String assumed =
                "the group notices after its session timeout (Connect's default " + CONNECT_SESSION_TIMEOUT.toSeconds()
                        + " s) and then waits scheduled.rebalance.max.delay.ms, assumed " + rebalanceDelay.toSeconds()
                        + " s (serve --rebalance-delay-seconds)";
        return silent <= due
                ? "Connect gives their tasks to the live workers within about " + (due - silent) + " s: " + assumed
                : "Connect should have given their tasks to the live workers " + (silent - due) + " s ago (" + assumed
                        + "): check the workers' group and logs, and that --rebalance-delay-seconds matches the workers";
    }
}
