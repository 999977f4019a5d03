package io.kcscale.scaler.ports;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * Port: what the scaler reads of Kafka to derive rates, lag and placement. Every call has a timeout; a failure is
 * an unchecked exception whose message says what Kafka did (the Admin client's adapter throws
 * {@code kafka.KafkaUnavailableException}).
 */
public interface KafkaReadings {

    /**
     * What a sampling round needs of many topics and groups, asked at once under one deadline; each topic's and
     * group's answer, or failure, is its own.
     */
    Batch read(Collection<String> topics, Collection<String> groups);

    /** The names of the cluster's topics, internal ones left out (a {@code topics.regex} sink is matched against them). */
    Set<String> topicNames();

    int partitionCount(String topic);

    /** The group's state and, per partition of {@code topic}, the client id of the member consuming it. */
    GroupView describeGroup(String group, String topic);

    /** Brokers in the cluster. */
    int brokerCount();

    /** The answers of one {@link #read}, per topic and per group: a read throws for its own failure only. */
    interface Batch {

        /** Log-end offset of every partition of {@code topic}, by partition number. */
        Map<Integer, Long> endOffsets(String topic);

        /** The group's committed offset per partition of {@code topic}; partitions with none are absent. */
        Map<Integer, Long> committedOffsets(String group, String topic);

        GroupView describeGroup(String group, String topic);
    }

    /**
     * @param clientIdByPartition the member consuming each partition, by its client id
     * @param assignor            the partition assignor the group uses (e.g. range), empty without members
     * @param protocol            the group's protocol type: CLASSIC or CONSUMER
     */
    record GroupView(String state, Map<Integer, String> clientIdByPartition, String assignor, String protocol) {}
}
