package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import java.util.Locale;

/** The peers' rules' decisions, built one way: an action on the observation's tasks with a code and a reason. */
final class Verdicts {

    private Verdicts() {}

    static Decision none(Observation o, String code, String reason, DecisionInputs.Builder inputs) {
        return of(o, Decision.Action.NONE, o.tasks(), code, reason, inputs);
    }

    static Decision hold(Observation o, String code, String reason, DecisionInputs.Builder inputs) {
        return of(o, Decision.Action.HOLD, o.tasks(), code, reason, inputs);
    }

    /** A scale to {@code to}, up or down as it lies from the tasks now; no change when it equals them. */
    static Decision scaleTo(Observation o, int to, String code, String reason, DecisionInputs.Builder inputs) {
        Decision.Action action = to > o.tasks()
                ? Decision.Action.SCALE_UP
                : to < o.tasks() ? Decision.Action.SCALE_DOWN : Decision.Action.NONE;
        return of(o, action, to, code, reason, inputs);
    }

    static Decision of(
            Observation o, Decision.Action action, int to, String code, String reason, DecisionInputs.Builder inputs) {
        return new Decision(o.atMillis(), action, o.tasks(), to, code, reason, inputs.build());
    }

    static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }

    /** A peer's time constant as it runs in a trace {@code timeScale} times as long as the peer's own. */
    static long scaled(long millis, double timeScale) {
        return Math.max(1, Math.round(millis * timeScale));
    }
}
