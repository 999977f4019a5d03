package io.kcscale.scaler.autoscale;

import java.util.List;
import java.util.Optional;

/**
 * What a connector's autoscale policy would set now, for actuators that are not ours (KEDA's
 * metrics-API trigger, an HPA on external metrics): the body of
 * {@code GET /api/v1/connectors/{name}/recommendation}. Pure.
 *
 * @param tasks     the tasks to run: the decision's target when it scales, else the tasks now
 * @param reason    the decision's one-line reason
 * @param blockedBy the checks' critical findings against one more task ("id: title"): why more tasks cannot help
 */
public record Recommendation(String connector, int tasks, String reason, List<String> blockedBy) {

    public Recommendation {
        blockedBy = List.copyOf(blockedBy);
    }

    /** The recommendation a decision makes; a decision on an unobserved connector (no tasks known) makes none. */
    public static Optional<Recommendation> of(String connector, Decision decision, List<String> blockedBy) {
        if (decision.toTasks() < 1) {
            return Optional.empty();
        }
        return Optional.of(new Recommendation(connector, decision.toTasks(), decision.reason(), blockedBy));
    }
}
