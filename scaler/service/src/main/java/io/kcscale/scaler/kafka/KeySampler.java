package io.kcscale.scaler.kafka;

import io.kcscale.scaler.access.AccessProblem;
import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.checks.keys.KeyTally;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the newest records of every partition of a topic, within the budget it is handed: a consumer
 * without a group, assigned every partition and sought to its end minus its share of the record
 * budget, reading until each partition's end as it was at the start, the record budget or the time
 * budget, whichever comes first. Keys and values go to a {@link KeyTally}; nothing is committed.
 */
public final class KeySampler {

    /** Larger polls and socket buffers than the defaults: a sample is one sequential read of the tail. */
    private static final int MAX_POLL_RECORDS = 10_000;

    private static final int RECEIVE_BUFFER_BYTES = 1 << 20;
    private static final Duration LONGEST_POLL = Duration.ofMillis(200);

    private final Map<String, Object> properties = new HashMap<>();
    private final Duration requestTimeout;

    public KeySampler(String bootstrapServers, Map<String, ?> clientOverrides, Duration requestTimeout) {
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "kcscale-key-sampler");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        properties.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, RECEIVE_BUFFER_BYTES);
        properties.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) requestTimeout.toMillis());
        properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) requestTimeout.toMillis());
        properties.putAll(clientOverrides);
        this.requestTimeout = requestTimeout;
    }

    /**
     * @param maxRecords the most records to read, spread over the partitions
     * @param maxTime    the longest time to read for
     * @throws KafkaUnavailableException when the topic does not exist or Kafka does not answer
     */
    public KeySample sample(String topic, int maxRecords, Duration maxTime) {
        long started = System.nanoTime();
        long deadline = started + maxTime.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, requestTimeout);
            if (infos == null || infos.isEmpty()) {
                throw new KafkaUnavailableException("topic " + topic + " does not exist", null);
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, requestTimeout);
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, requestTimeout);
            long share = Math.max(1, (maxRecords + partitions.size() - 1) / partitions.size());
            Set<TopicPartition> unread = new HashSet<>();
            partitions.stream().filter(tp -> end.get(tp) > begin.get(tp)).forEach(unread::add);
            List<Integer> withRecords =
                    unread.stream().map(TopicPartition::partition).sorted().toList();
            consumer.assign(unread);
            unread.forEach(tp -> consumer.seek(tp, Math.max(begin.get(tp), end.get(tp) - share)));

            KeyTally tally = new KeyTally();
            Set<TopicPartition> read = new HashSet<>();
            String stoppedBy = "end";
            while (!unread.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    stoppedBy = "time";
                    break;
                }
                if (tally.records() >= maxRecords) {
                    stoppedBy = "records";
                    break;
                }
                ConsumerRecords<byte[], byte[]> records =
                        consumer.poll(Duration.ofNanos(Math.min(left, LONGEST_POLL.toNanos())));
                for (TopicPartition tp : records.partitions()) {
                    long stop = end.get(tp);
                    read.add(tp);
                    for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                        if (r.offset() >= stop || tally.records() >= maxRecords) {
                            break;
                        }
                        tally.record(r.key());
                        if (tally.wantsFields()) {
                            JsonFields.read(r.value(), tally);
                        }
                    }
                    if (consumer.position(tp, requestTimeout) >= stop) {
                        unread.remove(tp);
                        consumer.pause(List.of(tp));
                    }
                }
            }
            return tally.sample(
                    topic,
                    partitions.size(),
                    read.size(),
                    (System.nanoTime() - started) / 1_000_000,
                    stoppedBy,
                    withRecords);
        } catch (KafkaException e) {
            throw new KafkaUnavailableException(
                    AccessProblem.kafka(e).orElse("cannot sample " + topic + ": " + e.getMessage()), e);
        }
    }
}
