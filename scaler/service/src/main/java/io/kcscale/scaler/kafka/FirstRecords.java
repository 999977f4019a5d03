package io.kcscale.scaler.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The first record at or after an offset of each partition, read by a consumer of no group that commits nothing: each
 * partition is paused once its record came, and the read ends at its deadline with what came by then.
 */
final class FirstRecords {

    private static final Duration LONGEST_POLL = Duration.ofMillis(200);

    private FirstRecords() {}

    /** @param deadline a {@link System#nanoTime()} instant; partitions whose record has not come by then are left out */
    static Map<TopicPartition, ConsumerRecord<byte[], byte[]>> at(
            KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> offsets, long deadline) {
        Map<TopicPartition, ConsumerRecord<byte[], byte[]>> first = new HashMap<>();
        consumer.assign(offsets.keySet());
        offsets.forEach(consumer::seek);
        while (first.size() < offsets.size()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            for (ConsumerRecord<byte[], byte[]> r :
                    consumer.poll(Duration.ofNanos(Math.min(left, LONGEST_POLL.toNanos())))) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                if (!first.containsKey(tp) && r.offset() >= offsets.get(tp)) {
                    first.put(tp, r);
                    consumer.pause(Set.of(tp));
                }
            }
        }
        return first;
    }
}
