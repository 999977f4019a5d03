package io.kcscale.scaler.cli;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.predict.ShardPrediction;
import io.kcscale.scaler.predict.ShardsRequest;
import io.kcscale.scaler.predict.ShardsResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcscale predict shards}: primary shards for a target indexing rate. */
@Command(
        name = "shards",
        mixinStandardHelpOptions = true,
        description = "Primary shards an Elasticsearch index needs for a target indexing rate.")
public final class PredictShardsCommand implements Callable<Integer> {

    @Option(
            names = "--target-rate",
            required = true,
            paramLabel = "<records/s>",
            description = "Records per second to index.")
    String targetRate;

    @Option(
            names = "--per-shard-rate",
            required = true,
            paramLabel = "<records/s>",
            description = "Records per second one primary shard sustains (measured).")
    String perShardRate;

    @Option(names = "--data-nodes", required = true, paramLabel = "<count>", description = "Elasticsearch data nodes.")
    String dataNodes;

    @Option(
            names = "--replicas",
            paramLabel = "<count>",
            description = "Replicas per primary (default: " + ShardPrediction.DEFAULT_REPLICAS + ").")
    String replicas;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        return output.print(
                () -> ShardPrediction.predict(new ShardsRequest(
                        Inputs.parse("targetRate", targetRate),
                        Inputs.parse("perShardRate", perShardRate),
                        Inputs.parse("dataNodes", dataNodes),
                        Inputs.parse("replicas", replicas))),
                PredictShardsCommand::text);
    }

    private static TextReport text(ShardsResult result) {
        return new TextReport("Shards for " + Numbers.format(result.targetRate()) + " records/s at "
                        + Numbers.format(result.perShardRate()) + " records/s per shard on " + result.dataNodes()
                        + " data node(s)")
                .row("primary shards", String.valueOf(result.primaryShards()), "set at index creation")
                .row("replicas", String.valueOf(result.replicas()), "per primary")
                .row("total shards", Numbers.format(result.totalShards()), "primaries and replicas")
                .row("shards per node", Numbers.format(result.shardsPerNode()), "at most, spread evenly")
                .list("Assumptions", result.assumptions())
                .list("Advice", result.advice());
    }
}
