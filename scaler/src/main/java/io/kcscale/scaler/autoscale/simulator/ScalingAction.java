package io.kcscale.scaler.autoscale.simulator;

/** A change of tasks a policy made during a run, with its one-line reason. */
public record ScalingAction(double atSeconds, int fromTasks, int toTasks, String code, String reason) {
}
