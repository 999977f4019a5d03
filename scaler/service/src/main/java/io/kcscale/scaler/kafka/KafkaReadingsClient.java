package io.kcscale.scaler.kafka;

import io.kcscale.scaler.access.AccessProblem;
import io.kcscale.scaler.ports.KafkaReadings;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;

/**
 * Reads through the Admin client what the scaler derives rates and lag from: a topic's end offsets,
 * a consumer group's committed offsets, its state and which member consumes which partition.
 */
public final class KafkaReadingsClient implements KafkaReadings, AutoCloseable {

    private final Properties props = new Properties();
    private final Duration timeout;
    private volatile Admin admin;

    public KafkaReadingsClient(String bootstrapServers, Map<String, Object> clientOverrides, Duration timeout) {
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.putAll(clientOverrides);
        this.admin = Admin.create(props);
        this.timeout = timeout;
    }

    @Override
    public int partitionCount(String topic) {
        TopicDescription description =
                get(admin.describeTopics(List.of(topic)).topicNameValues().get(topic));
        return description.partitions().size();
    }

    /** Log-end offset of every partition of {@code topic}, by partition number. */
    public Map<Integer, Long> endOffsets(String topic) {
        return read(List.of(topic), List.of()).endOffsets(topic);
    }

    /** The group's committed offset per partition of {@code topic}; partitions with none are absent. */
    public Map<Integer, Long> committedOffsets(String group, String topic) {
        return committedOn(
                topic,
                get(admin.listConsumerGroupOffsets(Map.of(group, new ListConsumerGroupOffsetsSpec()))
                        .partitionsToOffsetAndMetadata(group)));
    }

    /** The group's state and, per partition of {@code topic}, the client id of the member consuming it. */
    @Override
    public GroupView describeGroup(String group, String topic) {
        return groupView(
                get(admin.describeConsumerGroups(List.of(group))
                        .describedGroups()
                        .get(group)),
                topic);
    }

    /**
     * What a sampling round needs of many topics and groups, asked at once: one describe of the topics, then
     * one end-offsets request for all their partitions, one committed-offsets request for all the groups and
     * one describe of all the groups, the three in flight together. One deadline bounds the whole reading;
     * each topic's and group's answer, or failure, is its own.
     */
    @Override
    public KafkaBatchReading read(Collection<String> topics, Collection<String> groups) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Admin client = admin;
        Map<String, ListConsumerGroupOffsetsSpec> specs = new HashMap<>();
        groups.forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
        ListConsumerGroupOffsetsResult committed = groups.isEmpty() ? null : client.listConsumerGroupOffsets(specs);
        Map<String, KafkaFuture<ConsumerGroupDescription>> described = groups.isEmpty()
                ? Map.of()
                : client.describeConsumerGroups(groups).describedGroups();
        Map<String, KafkaFuture<TopicDescription>> topicFutures =
                topics.isEmpty() ? Map.of() : client.describeTopics(topics).topicNameValues();
        Map<String, Integer> partitions = new HashMap<>();
        Map<String, KafkaUnavailableException> topicErrors = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        topicFutures.forEach((topic, future) -> {
            try {
                int count = get(future, deadline).partitions().size();
                partitions.put(topic, count);
                for (int p = 0; p < count; p++) {
                    latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
                }
            } catch (KafkaUnavailableException e) {
                topicErrors.put(topic, e);
            }
        });
        ListOffsetsResult ends = latest.isEmpty() ? null : client.listOffsets(latest);
        return new KafkaBatchReading(this, deadline, partitions, topicErrors, ends, committed, described);
    }

    static Map<Integer, Long> committedOn(String topic, Map<TopicPartition, OffsetAndMetadata> committed) {
        Map<Integer, Long> offsets = new HashMap<>();
        committed.forEach((tp, om) -> {
            if (om != null && tp.topic().equals(topic)) {
                offsets.put(tp.partition(), om.offset());
            }
        });
        return offsets;
    }

    static GroupView groupView(ConsumerGroupDescription description, String topic) {
        Map<Integer, String> owners = new HashMap<>();
        for (MemberDescription member : description.members()) {
            for (TopicPartition tp : member.assignment().topicPartitions()) {
                if (tp.topic().equals(topic)) {
                    owners.put(tp.partition(), member.clientId());
                }
            }
        }
        return new GroupView(
                description.groupState().name(),
                owners,
                description.partitionAssignor(),
                description.type().name());
    }

    /** The names of the cluster's topics, internal ones left out (a {@code topics.regex} sink is matched against them). */
    @Override
    public Set<String> topicNames() {
        return get(admin.listTopics().names());
    }

    /** Brokers in the cluster. */
    @Override
    public int brokerCount() {
        return get(admin.describeCluster().nodes()).size();
    }

    public Admin admin() {
        return admin;
    }

    private <T> T get(KafkaFuture<T> future) {
        return get(future, System.nanoTime() + timeout.toNanos());
    }

    /** The future's value, waited for until {@code deadline} ({@link System#nanoTime()}) at most. */
    <T> T get(KafkaFuture<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("interrupted while asking Kafka", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthenticationException) {
                renewClient();
            }
            throw new KafkaUnavailableException(
                    AccessProblem.kafka(e.getCause())
                            .orElse("Kafka request failed: " + e.getCause().getMessage()),
                    e.getCause());
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
