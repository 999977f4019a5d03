package io.kcscale.lab.simulator;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A policy that does not decide: it sets the tasks on a fixed schedule, whatever it observes. The
 * simulator is validated with it against the real pipeline, where the same schedule must give the
 * same lag curve; no deciding policy's timing can blur the comparison.
 */
public final class ScheduledRule implements ScalingRule {

    private final NavigableMap<Long, Integer> tasksFromMillis;
    private final long intervalMillis;

    /** @param tasksFromMillis from each time on (ms from the run's start), the tasks to run; before the first, no change */
    public ScheduledRule(Map<Long, Integer> tasksFromMillis, long intervalMillis) {
        this.tasksFromMillis = new TreeMap<>(tasksFromMillis);
        this.intervalMillis = intervalMillis;
    }

    @Override
    public String name() {
        return "scheduled";
    }

    @Override
    public long evaluationIntervalMillis() {
        return intervalMillis;
    }

    @Override
    public Decision decide(Observation o, PolicyMemory memory) {
        Map.Entry<Long, Integer> due = tasksFromMillis.floorEntry(o.atMillis());
        if (due == null || due.getValue() == o.tasks()) {
            return new Decision(
                    o.atMillis(),
                    Decision.Action.NONE,
                    o.tasks(),
                    o.tasks(),
                    "schedule",
                    "as scheduled",
                    DecisionInputs.NONE);
        }
        Decision.Action action = due.getValue() > o.tasks() ? Decision.Action.SCALE_UP : Decision.Action.SCALE_DOWN;
        return new Decision(
                o.atMillis(),
                action,
                o.tasks(),
                due.getValue(),
                "schedule",
                "scheduled at " + due.getKey() / 1000.0 + " s",
                DecisionInputs.NONE);
    }
}
