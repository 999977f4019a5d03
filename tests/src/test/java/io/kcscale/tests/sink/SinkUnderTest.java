package io.kcscale.tests.sink;

import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.StackProbe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One sink of a test that runs both modes side by side on one topic of one partition: its connector
 * (from the mode's template in configs/connectors), index and dead-letter topic, with malformed
 * records sent there too.
 */
record SinkUnderTest(String mode, SinkMode template, String connector, String index, String deadLetters) {

    /** The per-record and the bulk sink, their names starting with {@code prefix}. */
    static List<SinkUnderTest> bothModes(String prefix) {
        return List.of(
                new SinkUnderTest(
                        "per-record",
                        SinkMode.INDEX,
                        prefix + "-per-record-sink",
                        prefix + "-per-record",
                        prefix + "-per-record-dlq"),
                new SinkUnderTest(
                        "bulk", SinkMode.BULK, prefix + "-bulk-sink", prefix + "-bulk", prefix + "-bulk-dlq"));
    }

    /** The template's configuration reading {@code topic}, with its dead-letter topic (and Connect's context headers). */
    Map<String, String> config(LocalStack stack, String topic) {
        Map<String, String> config = new HashMap<>(stack.connectorConfig(
                template.template(),
                Map.of(
                        "TOPIC",
                        topic,
                        "INDEX",
                        index,
                        "SINK_TASKS",
                        "1",
                        "ES_HOST_PORT",
                        stack.endpoints().elasticsearchUrl().getHost() + ":"
                                + stack.endpoints().elasticsearchUrl().getPort())));
        config.put("kcscale.malformed.records", "dlq");
        config.put("errors.tolerance", "all");
        config.put("errors.deadletterqueue.topic.name", deadLetters);
        config.put("errors.deadletterqueue.topic.replication.factor", "1");
        config.put("errors.deadletterqueue.context.headers.enable", "true");
        return config;
    }

    long committed(StackProbe probe, String topic) {
        return probe.kafka.committedOffsets("connect-" + connector, topic).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /** A record as the dead-letter topic holds it: its value and headers, Connect's context headers among them. */
    record DeadLetter(byte[] value, List<Header> headers) {

        String reason() {
            return header(headers, "__connect.errors.exception.message");
        }
    }

    /** Each dead letter's reason, by the offset of its record (from Connect's context headers). */
    Map<Long, List<String>> deadLetterReasons(LocalStack stack) {
        Map<Long, List<String>> reasons = new HashMap<>();
        deadLetterCopies(stack)
                .forEach((offset, copies) -> copies.forEach(copy ->
                        reasons.computeIfAbsent(offset, o -> new ArrayList<>()).add(copy.reason())));
        return reasons;
    }

    /** Each dead letter, by the offset of its record (from Connect's context headers). */
    Map<Long, List<DeadLetter>> deadLetterCopies(LocalStack stack) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap());
        Map<Long, List<DeadLetter>> copies = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(deadLetters, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            Poll.untilTrue(
                    "every dead letter of " + deadLetters,
                    Duration.ofSeconds(30),
                    Duration.ZERO,
                    () -> {
                        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                            List<Header> headers = List.of(record.headers().toArray());
                            copies.computeIfAbsent(
                                            Long.parseLong(header(headers, "__connect.errors.offset")),
                                            o -> new ArrayList<>())
                                    .add(new DeadLetter(record.value(), headers));
                        }
                        return consumer.position(partition) >= end;
                    },
                    () -> "read up to " + consumer.position(partition) + " of " + end);
        }
        return copies;
    }

    private static String header(List<Header> headers, String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).key().equals(name)) {
                return new String(headers.get(i).value(), StandardCharsets.UTF_8);
            }
        }
        return "(no header " + name + ")";
    }
}
