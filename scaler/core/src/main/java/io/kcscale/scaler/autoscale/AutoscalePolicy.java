package io.kcscale.scaler.autoscale;

import io.kcscale.scaler.input.InvalidInputException;

/**
 * What a user asks the autoscaler for: the body of {@code PUT /api/v1/connectors/{name}/autoscale}
 * (the API and the policy store call it a policy), which the rule it names decides by ({@link RatioScalingRule} unless
 * it names another).
 * A target in records: a Little's-law latency or a lag (one of them), an age target in seconds
 * ({@code targetLagSeconds}), or both kinds: the autoscaler scales up when either is exceeded. Null fields take their
 * defaults.
 *
 * @param targetLagSeconds      the most the oldest unconsumed record may have waited ({@code lag.seconds})
 * @param cooldownSeconds       the least time between two actions; default at least twice the last measured
 *                              rebalance pause, never under 30 s
 * @param scaleDownIdleFraction scale down when tasks are idle more than this fraction of the time for a whole cooldown
 * @param utilization           the share of measured capacity the tasks should run at (headroom for bursts)
 * @param drainSeconds          how fast a backlog above the target must drain
 * @param rule                  the rule that decides by it: {@code kcscale} (the default), or a peer's as it ships
 *                              ({@code keda-hpa}, {@code druid-cost}, {@code kafka-pod-autoscaler}, {@code responsive},
 *                              {@code flink})
 */
public record AutoscalePolicy(
        Integer minTasks,
        Integer maxTasks,
        Double targetLatencySeconds,
        Long targetLag,
        Double cooldownSeconds,
        Double scaleDownIdleFraction,
        Double utilization,
        Double drainSeconds,
        Boolean dryRun,
        Double targetLagSeconds,
        String rule) {

    public static final double MIN_COOLDOWN_SECONDS = 30;

    /** The rule a policy that names none is decided by. */
    public static final String DEFAULT_RULE = "kcscale";

    /** A policy decided by the toolkit's rule. */
    public AutoscalePolicy(
            Integer minTasks,
            Integer maxTasks,
            Double targetLatencySeconds,
            Long targetLag,
            Double cooldownSeconds,
            Double scaleDownIdleFraction,
            Double utilization,
            Double drainSeconds,
            Boolean dryRun,
            Double targetLagSeconds) {
        this(
                minTasks,
                maxTasks,
                targetLatencySeconds,
                targetLag,
                cooldownSeconds,
                scaleDownIdleFraction,
                utilization,
                drainSeconds,
                dryRun,
                targetLagSeconds,
                null);
    }

    /** The settings with defaults filled in, or an {@link InvalidInputException} naming the first bad field. */
    public AutoscalePolicy validated() {
        int min = minTasks == null ? 1 : minTasks;
        if (min < 1) {
            throw new InvalidInputException("minTasks", "must be at least 1, got " + min);
        }
        if (maxTasks == null) {
            throw new InvalidInputException("maxTasks", "is required: the most tasks the autoscaler may set");
        }
        if (maxTasks < min) {
            throw new InvalidInputException(
                    "maxTasks", "must be at least {0} (" + min + "), got " + maxTasks, "minTasks");
        }
        if (targetLatencySeconds != null && targetLag != null) {
            throw new InvalidInputException(
                    "targetLatencySeconds", "or {0} is one target in records: give only one of them", "targetLag");
        }
        if (targetLatencySeconds == null && targetLag == null && targetLagSeconds == null) {
            throw new InvalidInputException(
                    "targetLatencySeconds", "or {0} or {1} is required", "targetLag", "targetLagSeconds");
        }
        if (targetLagSeconds != null && !(targetLagSeconds > 0 && Double.isFinite(targetLagSeconds))) {
            throw new InvalidInputException(
                    "targetLagSeconds", "must be a positive number of seconds, got " + targetLagSeconds);
        }
        if (targetLatencySeconds != null && !(targetLatencySeconds > 0 && Double.isFinite(targetLatencySeconds))) {
            throw new InvalidInputException(
                    "targetLatencySeconds", "must be a positive number of seconds, got " + targetLatencySeconds);
        }
        if (targetLag != null && targetLag < 0) {
            throw new InvalidInputException("targetLag", "must be 0 or more records, got " + targetLag);
        }
        if (cooldownSeconds != null && !(cooldownSeconds >= MIN_COOLDOWN_SECONDS && Double.isFinite(cooldownSeconds))) {
            throw new InvalidInputException(
                    "cooldownSeconds",
                    "must be at least " + (int) MIN_COOLDOWN_SECONDS
                            + " s (a rebalance must settle before the next change), got " + cooldownSeconds);
        }
        double idle = scaleDownIdleFraction == null ? 0.75 : scaleDownIdleFraction;
        if (!(idle > 0 && idle < 1)) {
            throw new InvalidInputException(
                    "scaleDownIdleFraction", "must be more than 0 and less than 1, got " + idle);
        }
        double u = utilization == null ? 0.8 : utilization;
        if (!(u > 0 && u <= 1)) {
            throw new InvalidInputException("utilization", "must be more than 0 and at most 1, got " + u);
        }
        double drain = drainSeconds == null ? 60 : drainSeconds;
        if (!(drain > 0 && Double.isFinite(drain))) {
            throw new InvalidInputException("drainSeconds", "must be a positive number of seconds, got " + drain);
        }
        return new AutoscalePolicy(
                min,
                maxTasks,
                targetLatencySeconds,
                targetLag,
                cooldownSeconds,
                idle,
                u,
                drain,
                dryRun != null && dryRun,
                targetLagSeconds,
                rule == null || rule.isBlank() ? DEFAULT_RULE : rule);
    }

    /** The same settings deciding only: a paused policy records its decisions and changes nothing. */
    public AutoscalePolicy paused() {
        return new AutoscalePolicy(
                minTasks,
                maxTasks,
                targetLatencySeconds,
                targetLag,
                cooldownSeconds,
                scaleDownIdleFraction,
                utilization,
                drainSeconds,
                true,
                targetLagSeconds,
                rule);
    }

    /** In words, for messages: the bounds and the targets. */
    public String describe() {
        String records = targetLag != null
                ? ", targetLag " + targetLag
                : targetLatencySeconds != null ? ", targetLatencySeconds " + targetLatencySeconds : "";
        return "minTasks " + minTasks + ", maxTasks " + maxTasks + records
                + (targetLagSeconds != null ? ", targetLagSeconds " + targetLagSeconds : "")
                + (rule != null && !DEFAULT_RULE.equals(rule) ? ", rule " + rule : "");
    }

    /**
     * The lag the targets allow at {@code throughput}: the target lag, or latency × throughput (Little's law); with an
     * age target alone, the records appended within that age.
     */
    public double allowedLag(double throughput) {
        if (targetLag != null) {
            return targetLag;
        }
        return (targetLatencySeconds != null ? targetLatencySeconds : targetLagSeconds) * throughput;
    }

    /** The oldest unconsumed record waited longer than the age target (false without one, or an unknown age). */
    public boolean ageOverTarget(Double lagSeconds) {
        return targetLagSeconds != null && lagSeconds != null && lagSeconds > targetLagSeconds;
    }

    /** The cooldown in force: the set one, or twice the last rebalance pause, never under 30 s. */
    public double cooldownSeconds(Double lastPauseSeconds) {
        if (cooldownSeconds != null) {
            return cooldownSeconds;
        }
        return Math.max(MIN_COOLDOWN_SECONDS, lastPauseSeconds == null ? 0 : 2 * lastPauseSeconds);
    }
}
