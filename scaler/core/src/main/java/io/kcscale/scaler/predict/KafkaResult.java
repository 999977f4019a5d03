package io.kcscale.scaler.predict;

import java.util.List;

/** The answer of {@code predict kafka}; {@code brokersNeeded} only when a target was given. */
public record KafkaResult(
        int brokers,
        int replicationFactor,
        int consumerGroups,
        double utilization,
        Limits limits,
        double sustainedLimitMBps,
        double recommendedMBps,
        String bottleneck,
        Double targetMBps,
        Integer brokersNeeded,
        List<String> assumptions) {

    /**
     * Each term of the cluster limit in MB/s; the smallest is the bottleneck. {@code networkOut} is null
     * when nothing leaves the brokers (no consumer group and no follower): then it limits nothing.
     */
    public record Limits(double storage, double storageNetwork, Double networkOut) {}
}
