package io.kcscale.lab.chaos;

import io.kcscale.local.LocalStack;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The writes of a connector's config that Kafka Connect took, counted where Connect keeps them: each is one record
 * {@code connector-<name>} in its config topic (named in the workers' template), whoever sent it.
 */
public final class ConnectConfigWrites {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private ConnectConfigWrites() {}

    /** The config topic's end now: count from here. */
    public static long end(LocalStack stack) {
        try (KafkaConsumer<String, String> consumer = consumer(stack)) {
            TopicPartition p = partition(stack);
            return consumer.endOffsets(List.of(p), READ_TIMEOUT).get(p);
        }
    }

    /** The writes of {@code connector}'s config from offset {@code from} to the topic's end now. */
    public static long since(LocalStack stack, String connector, long from) {
        String key = "connector-" + connector;
        try (KafkaConsumer<String, String> consumer = consumer(stack)) {
            TopicPartition p = partition(stack);
            long end = consumer.endOffsets(List.of(p), READ_TIMEOUT).get(p);
            consumer.assign(List.of(p));
            consumer.seek(p, from);
            long writes = 0;
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (consumer.position(p) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Connect's config topic was not read to " + end + " within "
                            + READ_TIMEOUT.toSeconds() + " s");
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end && key.equals(r.key())) {
                        writes++;
                    }
                }
            }
            return writes;
        }
    }

    /** Connect's config topic has one partition (Connect requires it). */
    private static TopicPartition partition(LocalStack stack) {
        Path template = stack.options().home().resolve("configs/connect/worker.properties");
        Properties worker = new Properties();
        try (Reader r = Files.newBufferedReader(template, StandardCharsets.UTF_8)) {
            worker.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + template, e);
        }
        return new TopicPartition(worker.getProperty("config.storage.topic"), 0);
    }

    private static KafkaConsumer<String, String> consumer(LocalStack stack) {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.endpoints().kafkaBootstrap(),
                        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        (int) READ_TIMEOUT.toMillis()),
                new StringDeserializer(),
                new StringDeserializer());
    }
}
