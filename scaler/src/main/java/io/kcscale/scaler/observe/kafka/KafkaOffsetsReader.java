package io.kcscale.scaler.observe.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/** Reads a topic's end offsets and a consumer group's committed offsets through the Admin client. */
public final class KafkaOffsetsReader implements AutoCloseable {

    private final Admin admin;
    private final Duration timeout;

    public KafkaOffsetsReader(String bootstrapServers, Map<String, Object> clientOverrides, Duration timeout) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.putAll(clientOverrides);
        this.admin = Admin.create(props);
        this.timeout = timeout;
    }

    public int partitionCount(String topic) {
        TopicDescription description = get(admin.describeTopics(java.util.List.of(topic)).topicNameValues().get(topic));
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
            throw new KafkaUnavailableException("Kafka request failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaUnavailableException("Kafka did not answer within " + timeout.toMillis() + " ms", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
