package io.kcscale.lab.peers;

import io.kcscale.scaler.autoscale.ScalingRule;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The peers' rules beside the KEDA-style baseline, and their fixed settings for the benchmark's record. */
public final class PeerRules {

    private PeerRules() {}

    /** Fresh instances aimed at the same target with the same bounds: cost-based, rate plus lag, rate-based. */
    public static List<ScalingRule> create(
            double perTaskRate, double targetLatencySeconds, int minTasks, int maxTasks) {
        return List.of(
                new CostBasedRule(perTaskRate, targetLatencySeconds, minTasks, maxTasks),
                new RatePlusLagRule(perTaskRate, targetLatencySeconds, minTasks, maxTasks),
                new RateBasedRule(perTaskRate, targetLatencySeconds, minTasks, maxTasks));
    }

    /** What each rule ran with, written beside every benchmark's results. */
    public static Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put(
                CostBasedRule.NAME,
                Map.of(
                        "periodSeconds",
                        CostBasedRule.PERIOD_MILLIS / 1000,
                        "lagWeight",
                        CostBasedRule.LAG_WEIGHT,
                        "idleWeight",
                        CostBasedRule.IDLE_WEIGHT,
                        "minCostDrop",
                        CostBasedRule.MIN_COST_DROP));
        s.put(
                RatePlusLagRule.NAME,
                Map.of(
                        "pollSeconds",
                        RatePlusLagRule.POLL_MILLIS / 1000,
                        "rateWindowSeconds",
                        RatePlusLagRule.RATE_WINDOW_MILLIS / 1000,
                        "coolOffSeconds",
                        RatePlusLagRule.COOL_OFF_MILLIS / 1000));
        s.put(
                RateBasedRule.NAME,
                Map.of(
                        "pollSeconds",
                        RateBasedRule.POLL_MILLIS / 1000,
                        "scaleDownBufferSeconds",
                        RateBasedRule.SCALE_DOWN_BUFFER_MILLIS / 1000,
                        "scaleDownHeadroom",
                        RateBasedRule.SCALE_DOWN_HEADROOM,
                        "scaleDownUtilization",
                        RateBasedRule.SCALE_DOWN_UTILIZATION));
        return s;
    }
}
