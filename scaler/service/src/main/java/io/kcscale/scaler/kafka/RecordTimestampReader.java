package io.kcscale.scaler.kafka;

import io.kcscale.scaler.access.AccessProblem;
import io.kcscale.scaler.model.TopicPartition;
import io.kcscale.scaler.ports.RecordTimestamps;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads one record per partition, at the offsets asked for, with a consumer of no group that commits nothing.
 * Fetches are kept small (the record's value is not needed, only its timestamp) and the whole read ends within
 * its time limit.
 */
public final class RecordTimestampReader implements RecordTimestamps {

    /** Enough for one record of any usual size; a larger first record still comes, alone. */
    private static final int PARTITION_FETCH_BYTES = 64 * 1024;

    private static final int FETCH_BYTES = 1024 * 1024;

    private final Map<String, Object> properties = new HashMap<>();
    private final Duration limit;

    public RecordTimestampReader(String bootstrapServers, Map<String, ?> clientOverrides, Duration limit) {
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "kcscale-record-age");
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, PARTITION_FETCH_BYTES);
        properties.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, FETCH_BYTES);
        properties.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) limit.toMillis());
        properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) limit.toMillis());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.putAll(clientOverrides);
        this.limit = limit;
    }

    @Override
    public Map<TopicPartition, Long> at(Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, Long> timestamps = new TreeMap<>();
        if (offsets.isEmpty()) {
            return timestamps;
        }
        long deadline = System.nanoTime() + limit.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<org.apache.kafka.common.TopicPartition, Long> wanted = new HashMap<>();
            offsets.forEach((tp, offset) ->
                    wanted.put(new org.apache.kafka.common.TopicPartition(tp.topic(), tp.partition()), offset));
            FirstRecords.at(consumer, wanted, deadline)
                    .forEach((tp, r) -> timestamps.put(new TopicPartition(tp.topic(), tp.partition()), r.timestamp()));
            return timestamps;
        } catch (KafkaException e) {
            throw new KafkaUnavailableException(
                    AccessProblem.kafka(e)
                            .orElse("cannot read the records at the committed offsets: " + e.getMessage()),
                    e);
        }
    }
}
