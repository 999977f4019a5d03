package io.kcscale.scaler.autoscale;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * One evaluation's outcome: an action (or none) with a one-line reason and the inputs it used.
 *
 * @param fromTasks the tasks when it was decided; null, as {@code toTasks}, when the connector was not observed
 * @param toTasks   the tasks to set; equals {@code fromTasks} unless the action is a scale
 * @param code      the kind of reason (e.g. {@code cooldown}, {@code key-cardinality}), stable across evaluations
 *                  where the reason's numbers change, so a repeated verdict is reported once
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Decision(
        long atMillis,
        Action action,
        Integer fromTasks,
        Integer toTasks,
        String code,
        String reason,
        DecisionInputs inputs) {

    public enum Action {
        /** Nothing to do: the pipeline meets its target. */
        NONE,
        /** Would act, but must not now (unstable, cooling down, waiting out idleness). */
        HOLD,
        /** More tasks cannot help (keys, idle tasks, a saturated sink, a cap): says so instead of acting. */
        BLOCKED,
        SCALE_UP,
        SCALE_DOWN
    }

    public Decision {
        if ((fromTasks == null) != (toTasks == null)) {
            throw new IllegalArgumentException(
                    "fromTasks and toTasks are known together, got " + fromTasks + " and " + toTasks);
        }
        if (toTasks == null && (action == Action.SCALE_UP || action == Action.SCALE_DOWN)) {
            throw new IllegalArgumentException("a scale names its tasks");
        }
        Objects.requireNonNull(inputs, "inputs");
    }

    /** A hold on a connector that is not observed: no tasks known, no inputs. */
    public static Decision unobserved(long atMillis, String reason) {
        return new Decision(atMillis, Action.HOLD, null, null, "unobserved", reason, DecisionInputs.NONE);
    }

    public boolean scales() {
        return action == Action.SCALE_UP || action == Action.SCALE_DOWN;
    }

    /** Same verdict as {@code other} (action, tasks, kind of reason): a repeat that need not be reported again. */
    public boolean repeats(Decision other) {
        return other != null
                && other.action == action
                && Objects.equals(other.fromTasks, fromTasks)
                && Objects.equals(other.toTasks, toTasks)
                && other.code.equals(code);
    }
}
