package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The sustained throughput a Kafka cluster accepts, in MB/s, with r the replication factor and g
 * the consumer groups reading at the tip: min(storage·B/r, storage-network·B/r, network-out·B/(g+r−1)).
 * Every produced byte is written r times; every broker sends out g copies to consumers and r−1 to followers.
 * With g + r − 1 = 0 (an ingest-only cluster without replication) nothing leaves the brokers, so network
 * out is no limit at all and its term is absent.
 */
public final class KafkaClusterCapacity {

    private KafkaClusterCapacity() {}

    public static KafkaResult predict(KafkaRequest request) {
        int brokers = Inputs.count("brokers", request.brokers(), 1);
        int replication = Inputs.count("replicationFactor", request.replicationFactor(), 1);
        if (replication > brokers) {
            throw new InvalidInputException(
                    "replicationFactor",
                    "must be at most {0} (" + brokers + "): every replica needs its own broker",
                    "brokers");
        }
        // 0 is an ingest-only cluster: the published right-sizing tables include that row
        int groups = Inputs.count("consumerGroups", request.consumerGroups(), 0);
        double storage = Inputs.positive("storageMbps", request.storageMbps());
        double storageNetwork = Inputs.positive("storageNetworkMbps", request.storageNetworkMbps());
        double networkOut = Inputs.positive("networkOutMbps", request.networkOutMbps());
        double utilization =
                Inputs.utilization("utilization", request.utilization(), TaskPrediction.DEFAULT_UTILIZATION);
        Double target = request.targetMbps() == null ? null : Inputs.positive("targetMbps", request.targetMbps());

        // in double: consumer groups and the replication factor can each be near the int limit
        double copiesOut = (double) groups + replication - 1;
        Double networkOutPerBroker = copiesOut == 0 ? null : networkOut / copiesOut;
        double perBrokerLimit = Math.min(storage / replication, storageNetwork / replication);
        if (networkOutPerBroker != null) {
            perBrokerLimit = Math.min(perBrokerLimit, networkOutPerBroker);
        }
        KafkaResult.Limits limits = new KafkaResult.Limits(
                clusterTerm("storageMbps", storage / replication * brokers, "x {0} / {1}"),
                clusterTerm("storageNetworkMbps", storageNetwork / replication * brokers, "x {0} / {1}"),
                networkOutPerBroker == null
                        ? null
                        : clusterTerm("networkOutMbps", networkOutPerBroker * brokers, "x {0} / ({2} + {1} - 1)"));
        double sustained = perBrokerLimit * brokers;
        Integer brokersNeeded = target == null ? null : brokersFor(target, perBrokerLimit * utilization, replication);
        List<String> bottlenecks = atTheLimit(limits, sustained);
        List<String> assumptions = new ArrayList<>(List.of(
                "limit = min(storage x brokers / r, storage-network x brokers / r, network-out x brokers / (g + r - 1))"
                        + " with replication factor r = " + replication + " and g = " + groups + " consumer group(s)",
                "per-broker figures are sustained rates (not burst credits) in MB/s",
                groups == 0
                        ? "no consumer group reads the topic: an ingest-only cluster"
                        : "every consumer group reads at the tip of the log, from the page cache, not from storage",
                "partition leaders and traffic are spread evenly over the brokers",
                "recommended throughput is " + Numbers.format(utilization * 100) + "% of the sustained limit"));
        if (bottlenecks.size() > 1) {
            assumptions.add(String.join(" and ", bottlenecks) + " tie at " + Numbers.format(sustained)
                    + " MB/s: raising one of them alone does not raise the limit");
        }
        return new KafkaResult(
                brokers,
                replication,
                groups,
                utilization,
                limits,
                sustained,
                sustained * utilization,
                bottlenecks.get(0),
                target,
                brokersNeeded,
                List.copyOf(assumptions));
    }

    /** A term of the cluster limit, which per-broker MB/s near the double limit times the brokers can overflow. */
    private static double clusterTerm(String field, double value, String formula) {
        return Inputs.finite(
                value,
                field,
                formula + ", a term of the cluster limit, is above " + Inputs.LARGEST + " MB/s" + Inputs.LARGEST_IS
                        + ": lower it",
                "brokers",
                "replicationFactor",
                "consumerGroups");
    }

    /**
     * The terms at the limit, the network first: on a tie the instance's network is the one a larger storage
     * volume cannot lift, and the one published right-sizing guidance names.
     */
    private static List<String> atTheLimit(KafkaResult.Limits limits, double sustained) {
        List<String> terms = new ArrayList<>();
        if (limits.networkOut() != null && limits.networkOut() == sustained) {
            terms.add("network-out");
        }
        if (limits.storageNetwork() == sustained) {
            terms.add("storage-network");
        }
        if (limits.storage() == sustained) {
            terms.add("storage");
        }
        return terms;
    }

    /** Brokers add capacity linearly, as tasks do in {@link LinearScaling}; never fewer than the replication factor. */
    private static int brokersFor(double target, double recommendedPerBroker, int replication) {
        OptionalInt brokers = new LinearScaling(recommendedPerBroker).tasksFor(target);
        if (brokers.isEmpty()) {
            throw new InvalidInputException(
                    "targetMbps", "needs more than " + Numbers.format(Integer.MAX_VALUE) + " brokers: lower it");
        }
        return Math.max(replication, brokers.getAsInt());
    }
}
