package io.kcscale.scaler.predict;

/** What {@code predict kafka} takes, field for flag: per-broker MB/s figures and the cluster's shape. */
public record KafkaRequest(
        Double brokers,
        Double replicationFactor,
        Double consumerGroups,
        Double storageMbps,
        Double storageNetworkMbps,
        Double networkOutMbps,
        Double utilization,
        Double targetMbps) {}
