package io.kcscale.lab.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes records that are no JSON document to chosen partitions and returns the offsets the broker gave them. */
final class MalformedProducer implements AutoCloseable {

    static final String VALUE = "not json{";
    private static final long SEND_TIMEOUT_SECONDS = 60;

    private final String topic;
    private final KafkaProducer<String, String> producer;

    MalformedProducer(String bootstrapServers, String topic) {
        this.topic = topic;
        // idempotent and acks=all: a retried send after a broker restart must not add a second, unknown malformed record
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), new StringSerializer());
    }

    /** One malformed record to each of {@code partitions}, in order; returns where each landed. */
    List<OffsetLedger.Coordinates> send(List<Integer> partitions) {
        List<Future<RecordMetadata>> sent = partitions.stream()
                .map(p -> producer.send(new ProducerRecord<>(topic, p, "malformed", VALUE))).toList();
        List<OffsetLedger.Coordinates> landed = new ArrayList<>();
        try {
            for (Future<RecordMetadata> f : sent) {
                RecordMetadata m = f.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                landed.add(new OffsetLedger.Coordinates(m.partition(), m.offset()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted producing malformed records", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot produce malformed records: " + e.getMessage(), e);
        }
        return landed;
    }

    @Override
    public void close() {
        producer.close();
    }
}
