package io.kcscale.lab.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The JSON values of a topic's first records: the very documents the sink indexes. */
final class TopicDocuments {

    private TopicDocuments() {
    }

    static List<String> read(String bootstrapServers, String topic, int max, Duration timeout) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        List<String> documents = new ArrayList<>(max);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (documents.size() < max && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (documents.size() < max && record.value() != null) {
                        documents.add(record.value());
                    }
                }
            }
        }
        if (documents.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " gave no records within " + timeout.toSeconds() + " s");
        }
        return documents;
    }
}
