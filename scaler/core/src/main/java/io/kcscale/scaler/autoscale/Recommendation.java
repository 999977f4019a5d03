package io.kcscale.scaler.autoscale;

import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.predict.WorkerPrediction;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a connector's autoscale policy would set now, for actuators that are not ours (KEDA's
 * metrics-API trigger, an HPA on external metrics): the body of
 * {@code GET /api/v1/connectors/{name}/recommendation}. Pure.
 *
 * @param tasks          the tasks to run: the decision's target when it scales, else the tasks now
 * @param workers        the Connect workers those tasks need at {@code tasksPerWorker} each, as {@code predict
 *                       workers} counts them: what KEDA or an HPA sizes a {@code KafkaConnect} to
 * @param tasksPerWorker the tasks Connect runs on each worker now (see {@link #tasksPerWorker(List)})
 * @param reason         the decision's one-line reason
 * @param blockedBy      the checks' critical findings against one more task ("id: title"): why more tasks cannot help
 */
public record Recommendation(
        String connector, int tasks, int workers, int tasksPerWorker, String reason, List<String> blockedBy) {

    public Recommendation {
        blockedBy = List.copyOf(blockedBy);
    }

    /**
     * The recommendation a decision makes, its workers at {@code tasksPerWorker}; a decision on an unobserved
     * connector (no tasks known), or one that leaves it no task, makes none.
     */
    public static Optional<Recommendation> of(
            String connector, Decision decision, int tasksPerWorker, List<String> blockedBy) {
        if (decision.toTasks() == null || decision.toTasks() < 1) {
            return Optional.empty();
        }
        return Optional.of(new Recommendation(
                connector,
                decision.toTasks(),
                WorkerPrediction.workersFor(decision.toTasks(), tasksPerWorker),
                tasksPerWorker,
                decision.reason(),
                blockedBy));
    }

    /**
     * The tasks per worker Connect runs now: the connector's placed tasks over the workers holding them, rounded up,
     * so that the same tasks on the workers counted fit as they do now; 1 while no task is placed (a worker each,
     * the most that can help).
     */
    public static int tasksPerWorker(List<PipelineSnapshot.Task> tasks) {
        List<String> placed = tasks.stream()
                .map(PipelineSnapshot.Task::workerId)
                .filter(Objects::nonNull)
                .toList();
        long workers = placed.stream().distinct().count();
        return workers == 0 ? 1 : WorkerPrediction.workersFor(placed.size(), (int) workers);
    }
}
