package io.kcscale.lab.simulator;

/**
 * A change of tasks a policy made during a run, with its one-line reason.
 *
 * @param pauseSeconds the rebalance pause it caused: measured on the real pipeline (null when it could not
 *                     be), the setting in the simulator
 */
public record ScalingAction(
        double atSeconds, int fromTasks, int toTasks, String code, String reason, Double pauseSeconds) {}
