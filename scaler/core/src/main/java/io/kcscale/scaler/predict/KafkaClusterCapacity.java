package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;

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

    private KafkaClusterCapacity() {
    }

    public static KafkaResult predict(KafkaRequest request) {
        int brokers = Inputs.count("brokers", request.brokers(), 1);
        int replication = Inputs.count("replicationFactor", request.replicationFactor(), 1);
        if (replication > brokers) {
            throw new InvalidInputException("replicationFactor", "must be at most {0} (" + brokers
                    + "): every replica needs its own broker", "brokers");
        }
        // 0 is an ingest-only cluster: the published right-sizing tables include that row
        int groups = Inputs.count("consumerGroups", request.consumerGroups(), 0);
        double storage = Inputs.positive("storageMbps", request.storageMbps());
        double storageNetwork = Inputs.positive("storageNetworkMbps", request.storageNetworkMbps());
        double networkOut = Inputs.positive("networkOutMbps", request.networkOutMbps());
        double utilization = Inputs.utilization("utilization", request.utilization(), TaskPrediction.DEFAULT_UTILIZATION);
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
                networkOutPerBroker == null ? null
                        : clusterTerm("networkOutMbps", networkOutPerBroker * brokers, "x {0} / ({2} + {1} - 1)"));
        double sustained = perBrokerLimit * brokers;
        Integer brokersNeeded = target == null ? null : brokersFor(target, perBrokerLimit * utilization, replication);
        return new KafkaResult(brokers, replication, groups, utilization, limits, sustained, sustained * utilization,
                bottleneck(limits, sustained), target, brokersNeeded, List.of(
                        "limit = min(storage x brokers / r, storage-network x brokers / r, network-out x brokers / (g + r - 1))"
                                + " with replication factor r = " + replication + " and g = " + groups + " consumer group(s)",
                        "per-broker figures are sustained rates (not burst credits) in MB/s",
                        groups == 0 ? "no consumer group reads the topic: an ingest-only cluster"
                                : "every consumer group reads at the tip of the log, from the page cache, not from storage",
                        "partition leaders and traffic are spread evenly over the brokers",
                        "recommended throughput is " + Numbers.format(utilization * 100) + "% of the sustained limit"));
    }

    /** A term of the cluster limit, which per-broker MB/s near the double limit times the brokers can overflow. */
    private static double clusterTerm(String field, double value, String formula) {
        return Inputs.finite(value, field, formula + ", a term of the cluster limit, is above " + Inputs.LARGEST
                + " MB/s" + Inputs.LARGEST_IS + ": lower it", "brokers", "replicationFactor", "consumerGroups");
    }

    /** Ties go to the first term: storage, then storage network, then network out. */
    private static String bottleneck(KafkaResult.Limits limits, double sustained) {
        if (limits.storage() == sustained) {
            return "storage";
        }
        return limits.storageNetwork() == sustained || limits.networkOut() == null ? "storage-network" : "network-out";
    }

    /** Brokers add capacity linearly, as tasks do in {@link LinearScaling}; never fewer than the replication factor. */
    private static int brokersFor(double target, double recommendedPerBroker, int replication) {
        OptionalInt brokers = new LinearScaling(recommendedPerBroker).tasksFor(target);
        if (brokers.isEmpty()) {
            throw new InvalidInputException("targetMbps", "needs more than " + Numbers.format(Integer.MAX_VALUE)
                    + " brokers: lower it");
        }
        return Math.max(replication, brokers.getAsInt());
    }
}
