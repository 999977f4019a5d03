package io.kcscale.scaler.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;

import io.kcscale.scaler.access.AccessProblem;

/**
 * Reads through the Admin client what the scaler derives rates and lag from: a topic's end offsets,
 * a consumer group's committed offsets, its state and which member consumes which partition.
 */
public final class KafkaObserver implements AutoCloseable {

    private final Properties props = new Properties();
    private final Duration timeout;
    private volatile Admin admin;

    public KafkaObserver(String bootstrapServers, Map<String, Object> clientOverrides, Duration timeout) {
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.putAll(clientOverrides);
        this.admin = Admin.create(props);
        this.timeout = timeout;
    }

    public int partitionCount(String topic) {
        TopicDescription description = get(admin.describeTopics(List.of(topic)).topicNameValues().get(topic));
        return description.partitions().size();
    }

    /** Log-end offset of every partition of {@code topic}, by partition number. */
    public Map<Integer, Long> endOffsets(String topic) {
        int partitions = partitionCount(topic);
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        return get(admin.listOffsets(request).all()).entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
    }

    /** The group's committed offset per partition of {@code topic}; partitions with none are absent. */
    public Map<Integer, Long> committedOffsets(String group, String topic) {
        Map<TopicPartition, OffsetAndMetadata> committed = get(admin.listConsumerGroupOffsets(
                Map.of(group, new ListConsumerGroupOffsetsSpec())).partitionsToOffsetAndMetadata(group));
        Map<Integer, Long> offsets = new HashMap<>();
        committed.forEach((tp, om) -> {
            if (om != null && tp.topic().equals(topic)) {
                offsets.put(tp.partition(), om.offset());
            }
        });
        return offsets;
    }

    /** The group's state and, per partition of {@code topic}, the client id of the member consuming it. */
    public GroupView describeGroup(String group, String topic) {
        ConsumerGroupDescription description = get(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
        Map<Integer, String> owners = new HashMap<>();
        for (MemberDescription member : description.members()) {
            for (TopicPartition tp : member.assignment().topicPartitions()) {
                if (tp.topic().equals(topic)) {
                    owners.put(tp.partition(), member.clientId());
                }
            }
        }
        return new GroupView(description.groupState().name(), owners, description.partitionAssignor(),
                description.type().name());
    }

    /**
     * @param clientIdByPartition the member consuming each partition, by its client id
     * @param assignor            the partition assignor the group uses (e.g. range), empty without members
     * @param protocol            the group's protocol type: CLASSIC or CONSUMER
     */
    public record GroupView(String state, Map<Integer, String> clientIdByPartition, String assignor, String protocol) {
    }

    /** The names of the cluster's topics, internal ones left out (a {@code topics.regex} sink is matched against them). */
    public Set<String> topicNames() {
        return get(admin.listTopics().names());
    }

    /** Brokers in the cluster. */
    public int brokerCount() {
        return get(admin.describeCluster().nodes()).size();
    }

    public Admin admin() {
        return admin;
    }

    private <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted while asking Kafka", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthenticationException) {
                renewClient();
            }
            throw new KafkaUnavailableException(AccessProblem.kafka(e.getCause())
                    .orElse("Kafka request failed: " + e.getCause().getMessage()), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException("Kafka did not answer within " + timeout.toMillis() + " ms", e);
        }
    }

    /**
     * A client whose login failed keeps failing with that error after the broker's side is fixed (a
     * rotated password put back, a certificate renewed): the next call gets a client that logs in afresh.
     */
    private synchronized void renewClient() {
        Admin failed = admin;
        admin = Admin.create(props);
        failed.close(Duration.ZERO);
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
