package io.kcscale.scaler.autoscale;

import java.util.Map;

/**
 * One evaluation's outcome: an action (or none) with a one-line reason and the inputs it used.
 *
 * @param toTasks the tasks to set; equals {@code fromTasks} unless the action is a scale
 * @param code    the kind of reason (e.g. {@code cooldown}, {@code key-cardinality}), stable across evaluations
 *                where the reason's numbers change, so a repeated verdict is reported once
 */
public record Decision(
        long atMillis,
        Action action,
        int fromTasks,
        int toTasks,
        String code,
        String reason,
        Map<String, Object> inputs) {

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

    public boolean scales() {
        return action == Action.SCALE_UP || action == Action.SCALE_DOWN;
    }

    /** Same verdict as {@code other} (action, tasks, kind of reason): a repeat that need not be reported again. */
    public boolean repeats(Decision other) {
        return other != null
                && other.action == action
                && other.fromTasks == fromTasks
                && other.toTasks == toTasks
                && other.code.equals(code);
    }
}
