package io.kcscale.scaler.predict;

/** What {@code predict lag-threshold} takes, field for flag. */
public record LagThresholdRequest(Double perTaskRate, Double tasks, Double latencySloSeconds) {}
