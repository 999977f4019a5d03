package io.kcscale.lab.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The records of the dead-letter topic, each by the coordinates of the record it stands for: Connect
 * writes them in the {@code __connect.errors.partition} and {@code __connect.errors.offset} headers when
 * {@code errors.deadletterqueue.context.headers.enable} is on.
 */
final class DeadLetterRecords {

    private static final String PARTITION_HEADER = "__connect.errors.partition";
    private static final String OFFSET_HEADER = "__connect.errors.offset";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private DeadLetterRecords() {}

    /** Reads {@code topic} to its end as it is now; a topic that does not exist holds none. */
    static void read(String bootstrapServers, String topic, OffsetLedger ledger) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.listTopics(READ_TIMEOUT).getOrDefault(topic, List.of()).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Set<TopicPartition> unread = new HashSet<>(partitions);
            unread.removeIf(tp -> end.get(tp) == 0);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!unread.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the dead-letter topic " + topic
                            + " was not read to its end within " + READ_TIMEOUT.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    Header partition = r.headers().lastHeader(PARTITION_HEADER);
                    Header offset = r.headers().lastHeader(OFFSET_HEADER);
                    if (partition != null && offset != null) {
                        ledger.deadLettered(Integer.parseInt(text(partition)), Long.parseLong(text(offset)));
                    }
                }
                unread.removeIf(tp -> consumer.position(tp) >= end.get(tp));
            }
        }
    }

    private static String text(Header header) {
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
