package io.kcscale.scaler.predict;

import static io.kcscale.scaler.predict.TaskPredictionTest.assertField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.input.InvalidInputException;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KafkaClusterCapacityTest {

    @Test
    void networkOutIsTheBottleneckWithTwoGroupsAndThreeReplicas() {
        // storage 250 x 3 / 3 = 250, storage network 1000 x 3 / 3 = 1000, network out 300 x 3 / (2 + 3 - 1) = 225
        KafkaResult result = KafkaClusterCapacity.predict(request(3, 3, 2, 250, 1000, 300, null, null));
        assertEquals(250, result.limits().storage(), 1e-9);
        assertEquals(1000, result.limits().storageNetwork(), 1e-9);
        assertEquals(225, result.limits().networkOut(), 1e-9);
        assertEquals(225, result.sustainedLimitMBps(), 1e-9);
        assertEquals(180, result.recommendedMBps(), 1e-9);
        assertEquals("network-out", result.bottleneck());
        assertNull(result.brokersNeeded());
    }

    @Test
    void eachTermCanBeTheBottleneck() {
        assertEquals(
                "storage",
                KafkaClusterCapacity.predict(request(6, 3, 1, 100, 500, 1000, null, null))
                        .bottleneck());
        assertEquals(
                "storage-network",
                KafkaClusterCapacity.predict(request(6, 3, 1, 500, 100, 1000, null, null))
                        .bottleneck());
        assertEquals(
                "network-out",
                KafkaClusterCapacity.predict(request(6, 3, 9, 500, 500, 100, null, null))
                        .bottleneck());
        // on a tie the network is named, and the tie is said
        KafkaResult tie = KafkaClusterCapacity.predict(request(3, 1, 1, 100, 100, 100, null, null));
        assertEquals("network-out", tie.bottleneck());
        assertTrue(
                tie.assumptions()
                        .contains("network-out and storage-network and storage tie at 300 MB/s: raising one of them"
                                + " alone does not raise the limit"),
                tie.assumptions().toString());
        assertEquals(
                "storage-network",
                KafkaClusterCapacity.predict(request(3, 1, 9, 100, 100, 1000, null, null))
                        .bottleneck());
    }

    @Test
    void brokersNeededIsTheSmallestCountWhoseRecommendedThroughputReachesTheTarget() {
        // 75 MB/s per broker at the bottleneck, 60 at 80%: 400 / 60 = 6.7 -> 7
        KafkaResult result = KafkaClusterCapacity.predict(request(3, 3, 2, 250, 1000, 300, null, 400.0));
        assertEquals(7, result.brokersNeeded());
        assertEquals(
                6,
                KafkaClusterCapacity.predict(request(3, 3, 2, 250, 1000, 300, null, 360.0))
                        .brokersNeeded());
        assertEquals(
                6,
                KafkaClusterCapacity.predict(request(3, 3, 2, 250, 1000, 300, 1.0, 450.0))
                        .brokersNeeded());
    }

    @Test
    void brokersNeededIsNeverBelowTheReplicationFactor() {
        assertEquals(
                3,
                KafkaClusterCapacity.predict(request(3, 3, 1, 1000, 1000, 1000, null, 1.0))
                        .brokersNeeded());
    }

    @Test
    void moreTargetNeverNeedsFewerBrokers() {
        Random random = new Random(42);
        for (int trial = 0; trial < 300; trial++) {
            int replication = 1 + random.nextInt(3);
            double storage = 10 + random.nextDouble() * 1000;
            double network = 10 + random.nextDouble() * 1000;
            double out = 10 + random.nextDouble() * 1000;
            int groups = 1 + random.nextInt(4);
            double low = 1 + random.nextDouble() * 5000;
            double high = low * (1 + random.nextDouble());
            int lower = KafkaClusterCapacity.predict(
                            request(replication, replication, groups, storage, network, out, null, low))
                    .brokersNeeded();
            int higher = KafkaClusterCapacity.predict(
                            request(replication, replication, groups, storage, network, out, null, high))
                    .brokersNeeded();
            assertTrue(higher >= lower, "trial " + trial + ": " + lower + " then " + higher);
        }
    }

    @Test
    void badInputNamesItsField() {
        assertField("brokers", () -> KafkaClusterCapacity.predict(request(0, 1, 1, 1, 1, 1, null, null)));
        assertField("brokers", () -> KafkaClusterCapacity.predict(request(2.5, 1, 1, 1, 1, 1, null, null)));
        assertField("replicationFactor", () -> KafkaClusterCapacity.predict(request(2, 3, 1, 1, 1, 1, null, null)));
        assertField("consumerGroups", () -> KafkaClusterCapacity.predict(request(3, 3, -1, 1, 1, 1, null, null)));
        assertField("consumerGroups", () -> KafkaClusterCapacity.predict(request(3, 3, 0.5, 1, 1, 1, null, null)));
        assertField("storageMbps", () -> KafkaClusterCapacity.predict(request(3, 3, 1, -1, 1, 1, null, null)));
        assertField("storageNetworkMbps", () -> KafkaClusterCapacity.predict(request(3, 3, 1, 1, 0, 1, null, null)));
        assertField(
                "networkOutMbps", () -> KafkaClusterCapacity.predict(request(3, 3, 1, 1, 1, Double.NaN, null, null)));
        assertField("utilization", () -> KafkaClusterCapacity.predict(request(3, 3, 1, 1, 1, 1, 1.5, null)));
        assertField("targetMbps", () -> KafkaClusterCapacity.predict(request(3, 3, 1, 1, 1, 1, null, 0.0)));
        assertField("targetMbps", () -> KafkaClusterCapacity.predict(request(3, 3, 1, 1, 1, 1, null, 1e300)));
    }

    @Test
    void anIngestOnlyClusterHasNoConsumerGroup() {
        // g = 0, r = 3: only the two followers' copies go out; min(300·3/3, 600·3/3, 200·3/2) = 300, storage
        KafkaResult replicated = KafkaClusterCapacity.predict(request(3, 3, 0, 300, 600, 200, null, null));
        assertEquals(300, replicated.limits().networkOut(), 1e-9);
        assertEquals(300, replicated.sustainedLimitMBps(), 1e-9);
        assertEquals(0, replicated.consumerGroups());
        assertTrue(
                replicated.assumptions().contains("no consumer group reads the topic: an ingest-only cluster"),
                replicated.assumptions().toString());
        // g = 0, r = 1: nothing leaves a broker, so network out limits nothing however small it is
        KafkaResult single = KafkaClusterCapacity.predict(request(2, 1, 0, 100, 80, 0.001, null, 50.0));
        assertNull(single.limits().networkOut());
        assertEquals(160, single.sustainedLimitMBps(), 1e-9);
        assertEquals("storage-network", single.bottleneck());
        assertEquals(1, single.brokersNeeded());
    }

    @Test
    void countsAtTheIntLimitDoNotOverflow() {
        // consumerGroups + replicationFactor - 1 is above the int range: still a positive network-out term
        int max = Integer.MAX_VALUE;
        KafkaResult result = KafkaClusterCapacity.predict(request(max, max, max, 1, 1, 1e9, null, null));
        assertTrue(
                result.limits().networkOut() > 0
                        && Double.isFinite(result.limits().networkOut()),
                result.limits().toString());
        assertEquals(
                "storage-network", result.bottleneck(), "storage and its network tie at 1 MB/s: the network is named");
    }

    @Test
    void aClusterLimitAboveTheLargestDoubleNamesItsTerm() {
        double max = Double.MAX_VALUE;
        InvalidInputException e =
                assertField("storageMbps", () -> KafkaClusterCapacity.predict(request(3, 1, 1, max, 1, 1, null, null)));
        assertTrue(e.getMessage().startsWith("storageMbps x brokers / replicationFactor"), e.getMessage());
        assertField("storageNetworkMbps", () -> KafkaClusterCapacity.predict(request(3, 1, 1, 1, max, 1, null, null)));
        InvalidInputException out = assertField(
                "networkOutMbps", () -> KafkaClusterCapacity.predict(request(3, 1, 1, 1, 1, max, null, null)));
        assertTrue(out.getMessage().contains("(consumerGroups + replicationFactor - 1)"), out.getMessage());
    }

    private static KafkaRequest request(
            double brokers,
            double replication,
            double groups,
            double storage,
            double storageNetwork,
            double networkOut,
            Double utilization,
            Double target) {
        return new KafkaRequest(brokers, replication, groups, storage, storageNetwork, networkOut, utilization, target);
    }
}
