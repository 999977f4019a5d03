package io.kcscale.tests;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.kcscale.local.LocalStack;

/** A consumer with Kafka's default settings that reads a whole topic, as far as its end when it started: the baseline to compare with. */
final class PlainConsumer {

    private PlainConsumer() {
    }

    static KafkaConsumer<byte[], byte[]> open(LocalStack stack) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** @return records read */
    static long readAll(KafkaConsumer<byte[], byte[]> consumer, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Set<TopicPartition> unread = new HashSet<>();
        partitions.stream().filter(tp -> end.get(tp) > 0).forEach(unread::add);
        long read = 0;
        while (!unread.isEmpty()) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
            for (TopicPartition tp : records.partitions()) {
                long stop = end.get(tp);
                for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                    if (r.offset() < stop) {
                        each.accept(r);
                        read++;
                    }
                }
            }
            unread.removeIf(tp -> consumer.position(tp) >= end.get(tp));
        }
        return read;
    }
}
