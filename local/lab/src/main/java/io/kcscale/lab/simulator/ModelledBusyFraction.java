package io.kcscale.lab.simulator;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;

/**
 * A rule run on the simulator with the busy fraction its observations lack: a simulated task is busy while it
 * writes, so the running tasks' mean busy fraction is what they wrote over what they could have (the sink rate ÷
 * running tasks × the service rate), at most 1. An observation that carries a busy fraction keeps it. Waiting on a
 * saturated sink counts as busy on the real workers and is not modelled here.
 */
final class ModelledBusyFraction implements ScalingRule {

    private final ScalingRule rule;
    private final double perTaskRate;

    ModelledBusyFraction(ScalingRule rule, double perTaskRate) {
        this.rule = rule;
        this.perTaskRate = perTaskRate;
    }

    @Override
    public String name() {
        return rule.name();
    }

    @Override
    public long evaluationIntervalMillis() {
        return rule.evaluationIntervalMillis();
    }

    @Override
    public Decision decide(Observation o, PolicyMemory memory) {
        if (o.busyFraction() != null || o.tasksRunning() == 0) {
            return rule.decide(o, memory);
        }
        double busy = Math.min(1, o.sinkRate() / (o.tasksRunning() * perTaskRate));
        return rule.decide(
                new Observation(
                        o.atMillis(),
                        o.tasks(),
                        o.tasksRunning(),
                        o.tasksWithPartitionsAtMost(),
                        o.appendRate(),
                        o.sinkRate(),
                        o.lag(),
                        o.stable(),
                        o.unstableReasons(),
                        o.blockingFindings(),
                        o.sinkRejecting(),
                        o.lagSeconds(),
                        busy),
                memory);
    }

    @Override
    public void applied(Decision decision, Double pauseSeconds, PolicyMemory memory) {
        rule.applied(decision, pauseSeconds, memory);
    }
}
