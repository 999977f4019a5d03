package io.kcscale.scaler.predict;

import java.util.List;

/** The answer of {@code predict shards}: primaries to create the index with, and what they cost in shards. */
public record ShardsResult(
        double targetRate,
        double perShardRate,
        int dataNodes,
        int replicas,
        int primaryShards,
        long totalShards,
        long shardsPerNode,
        List<String> assumptions,
        List<String> advice) {}
