package io.kcscale.lab.chaos;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes hostile records to chosen partitions and returns the offsets the broker gave the malformed ones:
 * values no sink may index (not JSON, UTF-16 and UTF-32 JSON, a byte order mark, binary bytes, an array, a
 * tombstone), each carrying the headers that would steer a sink that trusted its records (delete the index,
 * write to every index, complete an aggregation early). Each batch also holds one valid document with those
 * headers: it must be indexed like any other, in the sink's own index, which must still be there.
 */
final class MalformedProducer implements AutoCloseable {

    static final List<byte[]> VALUES = List.of(
            "not json{".getBytes(StandardCharsets.UTF_8),
            "{\"symbol\":\"UTF16\"}".getBytes(StandardCharsets.UTF_16BE),
            "{\"symbol\":\"UTF32\"}".getBytes(Charset.forName("UTF-32LE")),
            ("\uFEFF{\"symbol\":\"BOM\"}").getBytes(StandardCharsets.UTF_8),
            new byte[] {0, 1, 2, (byte) 0xff, (byte) 0xfe, (byte) 0xc0, (byte) 0x80},
            "[1,2,3]".getBytes(StandardCharsets.UTF_8));
    /** The one record per batch that is valid JSON: indexed whatever its headers say. */
    static final byte[] VALID = "{\"symbol\":\"HOSTILE\",\"price\":1.5}".getBytes(StandardCharsets.UTF_8);

    static final Map<String, String> STEERING_HEADERS = Map.of(
            "CamelHeader.operation", "DeleteIndex",
            "CamelHeader.indexName", "*",
            "CamelHeader.CamelAggregationCompleteAllGroups", "true",
            "CamelProperty.CamelAggregationCompleteAllGroups", "true");
    private static final long SEND_TIMEOUT_SECONDS = 60;

    private final String topic;
    private final KafkaProducer<byte[], byte[]> producer;
    private int sent;

    MalformedProducer(String bootstrapServers, String topic) {
        this.topic = topic;
        // idempotent and acks=all: a retried send after a broker restart must not add a second, unknown malformed
        // record
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    /**
     * One malformed record to each of {@code partitions}, in order (the values in turn, every seventh a tombstone),
     * then the valid one with the same headers to the first; returns where the malformed ones landed.
     */
    List<OffsetLedger.Coordinates> send(List<Integer> partitions) {
        List<Future<RecordMetadata>> malformed = new ArrayList<>();
        for (int p : partitions) {
            // the values in turn, then a tombstone
            int slot = sent++ % (VALUES.size() + 1);
            byte[] value = slot == VALUES.size() ? null : VALUES.get(slot);
            malformed.add(producer.send(steered(p, value)));
        }
        Future<RecordMetadata> valid = partitions.isEmpty() ? null : producer.send(steered(partitions.get(0), VALID));
        List<OffsetLedger.Coordinates> landed = new ArrayList<>();
        try {
            for (Future<RecordMetadata> f : malformed) {
                RecordMetadata m = f.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                landed.add(new OffsetLedger.Coordinates(m.partition(), m.offset()));
            }
            if (valid != null) {
                valid.get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted producing hostile records", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot produce hostile records: " + e.getMessage(), e);
        }
        return landed;
    }

    private ProducerRecord<byte[], byte[]> steered(int partition, byte[] value) {
        ProducerRecord<byte[], byte[]> r =
                new ProducerRecord<>(topic, partition, "hostile".getBytes(StandardCharsets.UTF_8), value);
        STEERING_HEADERS.forEach((k, v) -> r.headers().add(new RecordHeader(k, v.getBytes(StandardCharsets.UTF_8))));
        return r;
    }

    @Override
    public void close() {
        producer.close();
    }
}
