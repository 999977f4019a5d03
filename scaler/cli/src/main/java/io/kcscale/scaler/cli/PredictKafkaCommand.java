package io.kcscale.scaler.cli;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.predict.KafkaClusterCapacity;
import io.kcscale.scaler.predict.KafkaRequest;
import io.kcscale.scaler.predict.KafkaResult;
import io.kcscale.scaler.predict.TaskPrediction;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcscale predict kafka}: the sustained throughput of a Kafka cluster, or the brokers a target needs. */
@Command(
        name = "kafka",
        mixinStandardHelpOptions = true,
        description =
                "Sustained Kafka cluster throughput (MB/s) and its bottleneck; with --target-mbps, the brokers needed.")
public final class PredictKafkaCommand implements Callable<Integer> {

    @Option(names = "--brokers", required = true, paramLabel = "<count>", description = "Brokers in the cluster.")
    String brokers;

    @Option(
            names = "--replication-factor",
            required = true,
            paramLabel = "<count>",
            description = "Replicas of every partition.")
    String replicationFactor;

    @Option(
            names = "--consumer-groups",
            required = true,
            paramLabel = "<count>",
            description =
                    "Consumer groups reading at the tip of the log (each sink connector is one); 0 for an ingest-only cluster.")
    String consumerGroups;

    @Option(
            names = "--storage-mbps",
            required = true,
            paramLabel = "<MB/s>",
            description = "Sustained storage throughput of one broker.")
    String storageMbps;

    @Option(
            names = "--storage-network-mbps",
            required = true,
            paramLabel = "<MB/s>",
            description = "Sustained network throughput between one broker and its storage (e.g. EBS).")
    String storageNetworkMbps;

    @Option(
            names = "--network-out-mbps",
            required = true,
            paramLabel = "<MB/s>",
            description = "Sustained outbound network throughput of one broker.")
    String networkOutMbps;

    @Option(
            names = "--utilization",
            paramLabel = "<share>",
            description = "Share of the sustained limit to plan for, in (0,1] (default: "
                    + TaskPrediction.DEFAULT_UTILIZATION + ").")
    String utilization;

    @Option(
            names = "--target-mbps",
            paramLabel = "<MB/s>",
            description = "Throughput to reach: prints the brokers needed.")
    String targetMbps;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        return output.print(
                () -> KafkaClusterCapacity.predict(new KafkaRequest(
                        Inputs.parse("brokers", brokers),
                        Inputs.parse("replicationFactor", replicationFactor),
                        Inputs.parse("consumerGroups", consumerGroups),
                        Inputs.parse("storageMbps", storageMbps),
                        Inputs.parse("storageNetworkMbps", storageNetworkMbps),
                        Inputs.parse("networkOutMbps", networkOutMbps),
                        Inputs.parse("utilization", utilization),
                        Inputs.parse("targetMbps", targetMbps))),
                PredictKafkaCommand::text);
    }

    private static TextReport text(KafkaResult result) {
        KafkaResult.Limits limits = result.limits();
        TextReport report = new TextReport("Kafka cluster: " + result.brokers() + " broker(s), replication factor "
                        + result.replicationFactor() + ", " + result.consumerGroups() + " consumer group(s)")
                .row(
                        "sustained limit",
                        Numbers.format(result.sustainedLimitMBps()) + " MB/s",
                        "bottleneck: " + result.bottleneck())
                .row(
                        "recommended",
                        Numbers.format(result.recommendedMBps()) + " MB/s",
                        "at " + Numbers.format(result.utilization() * 100) + "% utilization")
                .row("storage", Numbers.format(limits.storage()) + " MB/s", "storage x brokers / r")
                .row(
                        "storage-network",
                        Numbers.format(limits.storageNetwork()) + " MB/s",
                        "storage-network x brokers / r")
                .row(
                        "network-out",
                        limits.networkOut() == null ? "no limit" : Numbers.format(limits.networkOut()) + " MB/s",
                        limits.networkOut() == null
                                ? "g + r - 1 = 0: nothing leaves the brokers"
                                : "network-out x brokers / (g + r - 1)");
        if (result.brokersNeeded() != null) {
            report.row(
                    "brokers needed",
                    String.valueOf(result.brokersNeeded()),
                    "for " + Numbers.format(result.targetMBps()) + " MB/s at "
                            + Numbers.format(result.utilization() * 100) + "% utilization");
        }
        return report.list("Assumptions", result.assumptions());
    }
}
