package io.kcscale.scaler.predict;

import java.util.List;

/** The answer of {@code predict lag-threshold}: alert when lag exceeds {@code lagThreshold}. */
public record LagThresholdResult(
        double perTaskRate,
        int tasks,
        double latencySloSeconds,
        double drainRate,
        long lagThreshold,
        List<String> assumptions) {}
