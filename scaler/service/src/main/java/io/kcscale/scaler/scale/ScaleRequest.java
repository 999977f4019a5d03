package io.kcscale.scaler.scale;

/**
 * A validated request to set a sink connector's tasks.
 *
 * @param force go ahead with a scale-up even when a check finds that adding tasks would not help, and with any scale
 *              while a worker of the connector does not answer
 */
public record ScaleRequest(int tasks, boolean dryRun, boolean allowIdleTasks, boolean force) {

    /** A request that respects critical findings. */
    public ScaleRequest(int tasks, boolean dryRun, boolean allowIdleTasks) {
        this(tasks, dryRun, allowIdleTasks, false);
    }
}
