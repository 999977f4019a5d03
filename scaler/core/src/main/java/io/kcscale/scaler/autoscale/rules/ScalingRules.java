package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.RatioScalingRule;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.predict.LagThreshold;
import io.kcscale.scaler.predict.LagThresholdRequest;
import java.util.List;

/**
 * The rules a policy may name: the toolkit's ({@code kcscale}) and the peers' as they ship, each built from the
 * policy's bounds and targets. A peer's own settings it has no counterpart for in a policy keep the peer's defaults.
 */
public final class ScalingRules {

    public static final String KCSCALE = AutoscalePolicy.DEFAULT_RULE;

    /** Every name {@link #create} takes, the toolkit's first. */
    public static final List<String> NAMES = List.of(
            KCSCALE,
            KedaHpaRule.NAME,
            DruidCostRule.NAME,
            KafkaPodAutoscalerRule.NAME,
            ResponsiveRule.NAME,
            FlinkRule.NAME);

    private ScalingRules() {}

    /**
     * What a lab run knows beyond a policy.
     *
     * @param perTaskRate records/s one task writes as an operator measured it, for the peers that take one
     *                    (KEDA's threshold is derived from it, kafka-pod-autoscaler's {@code consumerMessagesPerSec},
     *                    Responsive's replica rate); null: the peers learn it or are refused
     * @param timeScale   every time constant of a peer's is multiplied by this (more than 0, at most 1), for a trace
     *                    shorter than the peer's own horizon
     */
    public record LabSettings(Double perTaskRate, double timeScale) {

        public static final LabSettings NONE = new LabSettings(null, 1);

        public LabSettings {
            if (perTaskRate != null && !(perTaskRate > 0 && Double.isFinite(perTaskRate))) {
                throw new IllegalArgumentException(
                        "perTaskRate must be a positive number of records/s, got " + perTaskRate);
            }
            if (!(timeScale > 0 && timeScale <= 1)) {
                throw new IllegalArgumentException("timeScale must be more than 0 and at most 1, got " + timeScale);
            }
        }
    }

    /** The rule {@code name} for a policy evaluated every {@code intervalMillis}, as the peer ships it. */
    public static ScalingRule create(String name, AutoscalePolicy policy, long intervalMillis) {
        return create(name, policy, intervalMillis, LabSettings.NONE);
    }

    /**
     * @throws InvalidInputException an unknown name, or a peer that needs what the policy does not give
     */
    public static ScalingRule create(String name, AutoscalePolicy policy, long intervalMillis, LabSettings lab) {
        AutoscalePolicy p = policy.validated();
        TaskBounds bounds = TaskBounds.of(p);
        return switch (name == null ? "" : name) {
            case KCSCALE -> new RatioScalingRule(p, intervalMillis);
            case KedaHpaRule.NAME -> new KedaHpaRule(lagThreshold(name, p, lab), bounds, lab.timeScale());
            case DruidCostRule.NAME -> new DruidCostRule(bounds, null, lab.timeScale());
            case KafkaPodAutoscalerRule.NAME ->
                new KafkaPodAutoscalerRule(lagThreshold(name, p, lab), lab.perTaskRate(), bounds, lab.timeScale());
            case ResponsiveRule.NAME -> new ResponsiveRule(p, lab.perTaskRate(), intervalMillis);
            case FlinkRule.NAME -> new FlinkRule(bounds, FlinkRule.Settings.DEFAULTS.scaled(lab.timeScale()));
            default ->
                throw new InvalidInputException("rule", "must be one of " + String.join(", ", NAMES) + ", got " + name);
        };
    }

    /**
     * A peer's longest time constant as it ships, in seconds: what must fit in a trace for the peer to play out
     * (0 for the toolkit's rule and Responsive's, which documents none).
     */
    public static double longestTimeConstantSeconds(String name) {
        return switch (name) {
            case KedaHpaRule.NAME -> KedaHpaRule.DOWNSCALE_STABILIZATION_MILLIS / 1000.0;
            case DruidCostRule.NAME -> DruidCostRule.MIN_SCALE_DOWN_DELAY_MILLIS / 1000.0;
            case KafkaPodAutoscalerRule.NAME ->
                KafkaPodAutoscalerRule.TOPIC_RATE_WINDOW * KafkaPodAutoscalerRule.RECONCILE_MILLIS / 1000.0;
            case FlinkRule.NAME -> FlinkRule.Settings.DEFAULTS.scaleDownIntervalMillis() / 1000.0;
            case KCSCALE, ResponsiveRule.NAME -> 0;
            default ->
                throw new InvalidInputException("rule", "must be one of " + String.join(", ", NAMES) + ", got " + name);
        };
    }

    /**
     * The lag a threshold-driven peer aims at: the policy's {@code targetLag}, or the lag one task drains within the
     * target seconds at the measured per-task rate (what a careful operator would set).
     */
    public static long lagThreshold(String rule, AutoscalePolicy p, LabSettings lab) {
        if (p.targetLag() != null) {
            return Math.max(1, p.targetLag());
        }
        if (lab.perTaskRate() == null) {
            throw new InvalidInputException(
                    "targetLag",
                    "is required by " + rule
                            + " (its lag threshold), or a measured per-task rate to derive it from the target seconds");
        }
        double seconds = p.targetLatencySeconds() != null ? p.targetLatencySeconds() : p.targetLagSeconds();
        return Math.max(
                1,
                LagThreshold.predict(new LagThresholdRequest(lab.perTaskRate(), 1.0, seconds))
                        .lagThreshold());
    }
}
