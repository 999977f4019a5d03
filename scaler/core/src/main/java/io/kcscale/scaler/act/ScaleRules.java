package io.kcscale.scaler.act;

import io.kcscale.scaler.model.WorkerLoss;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Whether a scale to N tasks may go ahead, and what to warn about. Pure. */
public final class ScaleRules {

    private ScaleRules() {}

    /**
     * What the rules look at. {@code partitions} is the most tasks that can get a partition: the partition count of a
     * sink of one topic; of several, what the group's assignor makes of their counts, {@code partitionsBound} saying
     * how (null for one topic). It is null when Kafka did not answer; {@code workerLoss} is what the scaler last
     * observed of the connector's workers.
     */
    public record Facts(
            String connector,
            boolean sink,
            int tasksMax,
            Integer partitions,
            int taskCap,
            boolean stable,
            List<String> unstableReasons,
            WorkerLoss workerLoss,
            String partitionsBound) {}

    /** The reason to refuse, if any: the first rule broken; {@code force} overrides a lost worker only. */
    public static Optional<String> refusal(int tasks, boolean allowIdleTasks, boolean force, Facts f) {
        if (!f.sink()) {
            return Optional.of(f.connector() + " is not a sink connector: the scaler changes sink tasks only");
        }
        if (tasks < 1) {
            return Optional.of("tasks must be at least 1, got " + tasks);
        }
        if (tasks > f.taskCap()) {
            return Optional.of(
                    "tasks " + tasks + " is above the task cap of " + f.taskCap() + " (the scaler's --task-cap)");
        }
        if (f.partitions() == null && !allowIdleTasks) {
            return Optional.of(
                    "the partition count is unknown (Kafka did not answer), so tasks beyond it cannot be ruled out;"
                            + " retry, or pass allowIdleTasks");
        }
        if (f.partitions() != null && tasks > f.partitions() && !allowIdleTasks) {
            return Optional.of("tasks " + tasks + " is above the "
                    + (f.partitionsBound() == null
                            ? f.partitions() + " partitions of the topic"
                            : f.partitions() + " tasks that can get a partition (" + f.partitionsBound() + ")")
                    + ": " + (tasks - f.partitions())
                    + " task(s) would sit idle; add partitions first, or pass allowIdleTasks");
        }
        if (!f.workerLoss().none() && tasks != f.tasksMax() && !force) {
            return Optional.of(
                    f.workerLoss().describe() + ": Connect has not given its tasks to the live workers yet, so they"
                            + " are not running and a scale would wait on them; scale once status shows every task RUNNING on a"
                            + " worker that answers, or pass force to scale anyway");
        }
        return Optional.empty();
    }

    /** What the caller should know about a scale that goes ahead. */
    public static List<String> warnings(int tasks, Facts f) {
        List<String> warnings = new ArrayList<>();
        if (tasks == f.tasksMax()) {
            warnings.add("tasks.max is already " + tasks + ": nothing to change");
        }
        if (f.partitions() != null && tasks > f.partitions()) {
            warnings.add((tasks - f.partitions()) + " task(s) will have no partition to consume");
        }
        if (!f.stable()) {
            warnings.add("the pipeline was not stable before the change (" + String.join("; ", f.unstableReasons())
                    + "): scaling can hide the cause");
        }
        return warnings;
    }
}
