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

    /** Each term of the cluster limit in MB/s; the smallest is the bottleneck. */
    public record Limits(double storage, double storageNetwork, double networkOut) {
    }
}
