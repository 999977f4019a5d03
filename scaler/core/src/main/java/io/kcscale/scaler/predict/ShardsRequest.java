package io.kcscale.scaler.predict;

/** What {@code predict shards} takes, field for flag; {@code replicas} defaults to 1. */
public record ShardsRequest(Double targetRate, Double perShardRate, Double dataNodes, Double replicas) {}
