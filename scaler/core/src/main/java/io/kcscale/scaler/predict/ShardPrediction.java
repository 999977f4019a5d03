package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * How many primary shards an index needs for a target indexing rate: at least one per data node
 * (so every node indexes), and enough that each stays within the measured per-shard rate.
 */
public final class ShardPrediction {

    public static final int DEFAULT_REPLICAS = 1;

    private ShardPrediction() {}

    public static ShardsResult predict(ShardsRequest request) {
        double target = Inputs.positive("targetRate", request.targetRate());
        double perShard = Inputs.positive("perShardRate", request.perShardRate());
        int nodes = Inputs.count("dataNodes", request.dataNodes(), 1);
        int replicas = Inputs.count("replicas", request.replicas(), 0, DEFAULT_REPLICAS);
        // shards, like tasks in LinearScaling, each add the same indexing rate
        OptionalInt forRate = new LinearScaling(perShard).tasksFor(target);
        if (forRate.isEmpty()) {
            throw new InvalidInputException(
                    "targetRate",
                    "needs more than " + Numbers.format(Integer.MAX_VALUE) + " shards at this {0}: lower it",
                    "perShardRate");
        }
        int primaries = Math.max(nodes, forRate.getAsInt());
        long total = (long) primaries * (1 + replicas);
        long perNode = (total + nodes - 1) / nodes;

        List<String> advice = new ArrayList<>();
        advice.add("the shard count is fixed when an index is created: to change it, create a new index and move"
                + " an alias to it, use _split, or set it in an index template for future indices");
        advice.add("Elasticsearch 7 and later create 1 primary shard by default, which caps indexing at one node");
        if (replicas > nodes - 1) {
            advice.add(replicas + " replica(s) need " + (replicas + 1) + " data nodes: with " + nodes
                    + ", some replicas stay unassigned (cluster yellow)");
        }
        return new ShardsResult(
                target,
                perShard,
                nodes,
                replicas,
                primaries,
                total,
                perNode,
                List.of(
                        "one primary shard sustains " + Numbers.format(perShard) + " records/s with its replicas",
                        "each replica repeats its primary's indexing on another node, so node load counts " + total
                                + " shards, not " + primaries,
                        primaries == nodes && forRate.getAsInt() < nodes
                                ? "one primary per data node (" + nodes + "), more than the rate alone needs ("
                                        + forRate.getAsInt() + "), so every node indexes"
                                : "primaries = ceil(target rate / per-shard rate), at least one per data node"),
                List.copyOf(advice));
    }
}
