package io.kcscale.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;

/**
 * Elasticsearch's own bulk index rate, with nothing in front of it: the topic's records from its start
 * (as a sink connector starting on it reads them), cut into requests of the sink's batch size
 * ({@link RawBulkBodies}: the same documents and ids), read into memory before the first turn so no
 * reading competes with Elasticsearch for the cores while it is measured, then sent back to back with as
 * many in flight as the sink allows. The ceiling the bulk sink is held against. Should the senders use
 * up the bodies, they start over, overwriting documents, and the load says so ({@link #wentRound()}).
 */
final class RawBulkLoad {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Longer than the Elasticsearch client's own timeouts. */
    private static final Duration LAST_REQUEST = Duration.ofMinutes(2);

    private final RestClient elasticsearch;
    private final List<byte[]> bodies;
    private final AtomicLong next = new AtomicLong();

    private RawBulkLoad(RestClient elasticsearch, List<byte[]> bodies) {
        this.elasticsearch = elasticsearch;
        this.bodies = bodies;
    }

    /**
     * Reads up to {@code documents} records of {@code topic} from its start, or what it holds (at least one
     * request's worth), into requests of {@code batchSize} into {@code index}. About 200 bytes of heap a document.
     */
    static RawBulkLoad read(
            RestClient elasticsearch,
            String index,
            String bootstrapServers,
            String topic,
            int batchSize,
            long documents,
            Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                batchSize);
        List<byte[]> bodies = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long end = consumer.endOffsets(partitions, timeout).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
            long wanted = Math.min(documents, end) / batchSize;
            List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>(batchSize);
            while (bodies.size() < wanted && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    batch.add(record);
                    if (batch.size() == batchSize) {
                        bodies.add(RawBulkBodies.body(index, batch));
                        batch = new ArrayList<>(batchSize);
                    }
                }
            }
        }
        if (bodies.isEmpty()) {
            throw new IllegalStateException("the raw load read no " + batchSize + " records from topic " + topic
                    + " within " + timeout.toSeconds() + " s");
        }
        return new RawBulkLoad(elasticsearch, List.copyOf(bodies));
    }

    /** Whether the senders have used up the bodies read and started over (so documents were overwritten). */
    boolean wentRound() {
        return next.get() > bodies.size();
    }

    /**
     * Sends bulk requests back to back for {@code window}, {@code inFlight} at a time (each from a
     * thread of its own, as the sink's client has a connection per request): documents indexed per second.
     */
    double docsPerSecond(Duration window, int inFlight) {
        long from = System.nanoTime();
        long until = from + window.toNanos();
        ExecutorService senders = Executors.newFixedThreadPool(inFlight);
        try {
            List<Future<Long>> indexed = new ArrayList<>();
            for (int i = 0; i < inFlight; i++) {
                indexed.add(senders.submit(() -> sendUntil(until)));
            }
            long total = 0;
            for (Future<Long> each : indexed) {
                // each sender stops at the window's end, its last request bounded by the client's timeouts
                total += each.get(window.toMillis() + LAST_REQUEST.toMillis(), TimeUnit.MILLISECONDS);
            }
            return total / ((System.nanoTime() - from) / 1e9);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "a raw bulk request had no answer within " + LAST_REQUEST.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring", e);
        } finally {
            senders.shutdownNow();
        }
    }

    private long sendUntil(long until) {
        long indexed = 0;
        while (System.nanoTime() < until) {
            indexed += send(bodies.get((int) (next.getAndIncrement() % bodies.size())));
        }
        return indexed;
    }

    /** One request; the documents Elasticsearch indexed (all of them, or the measurement fails). */
    private long send(byte[] body) {
        Request request = new Request("POST", "/_bulk");
        request.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
        try {
            Response response = elasticsearch.performRequest(request);
            JsonNode answer;
            try (InputStream in = response.getEntity().getContent()) {
                answer = JSON.readTree(in);
            }
            if (answer.path("errors").asBoolean(true)) {
                throw new IllegalStateException("Elasticsearch rejected documents of a raw bulk request: "
                        + answer.path("items").path(0));
            }
            return answer.path("items").size();
        } catch (IOException e) {
            // the client's message carries the whole answer, JSON and all: its first line says what failed
            String message = String.valueOf(e.getMessage())
                    .lines()
                    .findFirst()
                    .orElse(e.getClass().getSimpleName());
            throw new IllegalStateException("a raw bulk request to Elasticsearch failed: " + message, e);
        }
    }
}
