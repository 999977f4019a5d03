package io.kcscale.scaler.act;

/** A validated request to set a sink connector's tasks. */
public record ScaleRequest(int tasks, boolean dryRun, boolean allowIdleTasks) {
}
