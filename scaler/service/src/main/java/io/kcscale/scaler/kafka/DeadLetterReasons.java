package io.kcscale.scaler.kafka;

import io.kcscale.scaler.access.AccessProblem;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Why a sink's newest dead letter was written: the context headers Connect adds to a dead-letter record
 * ({@code errors.deadletterqueue.context.headers.enable=true}), read from the last record of each partition
 * of the dead-letter topic by a consumer without a group. The headers carry text from the record and from
 * Elasticsearch, so the reason is decoded leniently, stripped of control characters and cut short.
 */
public final class DeadLetterReasons {

    static final String EXCEPTION_CLASS = "__connect.errors.exception.class.name";
    static final String EXCEPTION_MESSAGE = "__connect.errors.exception.message";
    static final String ORIGIN_TOPIC = "__connect.errors.topic";
    static final String ORIGIN_PARTITION = "__connect.errors.partition";
    static final String ORIGIN_OFFSET = "__connect.errors.offset";
    /** A reason is one line of status: the full trace stays in the dead-letter record. */
    static final int REASON_CHARS = 300;

    private final Map<String, Object> properties = new HashMap<>();
    private final Duration timeout;

    /** @param timeout bounds the whole reading: it runs inside a sampling round */
    public DeadLetterReasons(String bootstrapServers, Map<String, ?> clientOverrides, Duration timeout) {
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "kcscale-dead-letter-reader");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
        properties.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        properties.putAll(clientOverrides);
        this.timeout = timeout;
    }

    /**
     * The reason of the newest record of {@code topic} (by timestamp over its partitions' last records).
     *
     * @return empty when the topic holds no record or none was read in time
     * @throws KafkaUnavailableException when Kafka does not answer or refuses the read
     */
    public Optional<String> latest(String topic) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                return Optional.empty();
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, timeout);
            Map<TopicPartition, Long> last = new HashMap<>();
            partitions.stream().filter(tp -> end.get(tp) > begin.get(tp)).forEach(tp -> last.put(tp, end.get(tp) - 1));
            ConsumerRecord<byte[], byte[]> newest = null;
            for (ConsumerRecord<byte[], byte[]> r :
                    FirstRecords.at(consumer, last, deadline).values()) {
                if (newest == null || r.timestamp() > newest.timestamp()) {
                    newest = r;
                }
            }
            return Optional.ofNullable(newest).map(DeadLetterReasons::reason);
        } catch (KafkaException e) {
            throw new KafkaUnavailableException(
                    AccessProblem.kafka(e).orElse("cannot read dead-letter topic " + topic + ": " + e.getMessage()), e);
        }
    }

    /** The exception and the record it was about, from Connect's context headers; what to enable when there are none. */
    static String reason(ConsumerRecord<byte[], byte[]> deadLetter) {
        String message = header(deadLetter, EXCEPTION_MESSAGE);
        String exception = header(deadLetter, EXCEPTION_CLASS);
        if (message == null && exception == null) {
            return "not recorded: set errors.deadletterqueue.context.headers.enable=true on the connector to see why";
        }
        String origin = header(deadLetter, ORIGIN_TOPIC);
        String reason = (exception == null ? "" : exception + ": ")
                + (message == null ? "" : message)
                + (origin == null
                        ? ""
                        : " (record " + origin + "-" + header(deadLetter, ORIGIN_PARTITION) + "@"
                                + header(deadLetter, ORIGIN_OFFSET) + ")");
        return oneLine(reason);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
        Header h = record.headers().lastHeader(key);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Control and format characters (line breaks, escapes a terminal would obey, bidi overrides) become spaces; the text is cut to one status line. */
    static String oneLine(String text) {
        String flat =
                text.replaceAll("[\\s\\p{Cntrl}\\p{Cf}\\p{Zl}\\p{Zp}]+", " ").strip();
        return flat.codePointCount(0, flat.length()) <= REASON_CHARS
                ? flat
                : flat.substring(0, flat.offsetByCodePoints(0, REASON_CHARS - 1)) + "…";
    }
}
