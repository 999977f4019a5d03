package io.kcscale.tests.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A corpus of hostile records, read by a per-record and a bulk sink at once (each its own index and
 * dead-letter topic) on the shared stack: headers that once steered Camel (operation=DeleteIndex,
 * indexName, aggregation completion, a forged id or coordinates, CamelProperty.*), a 1 MB record,
 * 200 KB documents at the default bounds, UTF-16/32 and byte order marks, bytes that are no UTF-8,
 * deep nesting, huge numbers, duplicate keys, a tombstone, a null key, binary garbage. Every offset is
 * reconciled: in the index or in the dead-letter topic, exactly once, each dead letter naming its record
 * and why and holding its value and its own headers as produced (those that once steered Camel too), before
 * Connect's context headers; no index deleted or written besides the sink's own; accepted documents stored
 * byte for byte; every offset committed with both tasks running.
 */
@Order(6)
@ExtendWith(SharedStack.class)
class HostileRecordsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPIC = "hostile";
    /** 200 KB each, 12 MB in all: more than one bulk request of the default kcscale.bulk.max.bytes. */
    private static final int LARGE_DOCUMENTS = 60;

    private static final int MOST_RECORD_BYTES = 4 * 1024 * 1024;

    enum Destination {
        INDEX,
        DEAD_LETTERS,
        EITHER
    }

    /** A record of the corpus and where it must end; EITHER where Elasticsearch decides (it must still end in one place). */
    private record Hostile(
            String what, byte[] key, byte[] value, List<Map.Entry<String, String>> headers, Destination expected) {}

    private static final List<SinkUnderTest> SINKS = SinkUnderTest.bothModes("hostile");

    /** Headers of the records that may end in the dead-letter topic: a key twice, bytes that are no text, one Camel would obey. */
    private static final List<Map.Entry<String, String>> OWN_HEADERS = List.of(
            Map.entry("trace-id", "hostile"),
            Map.entry("CamelHeader.operation", "DeleteIndex"),
            Map.entry("bytes", "\u0000\u00ff\n"),
            Map.entry("twice", "1"),
            Map.entry("twice", "2"));

    @Test
    void everyRecordEndsInTheIndexOrTheDeadLetterTopicExactlyOnceAndNoneSteersTheSink(LocalStack stack)
            throws Exception {
        long started = System.nanoTime();
        List<Hostile> corpus = corpus();
        try (ScratchPipeline pipeline = new ScratchPipeline(stack)) {
            pipeline.topic(TOPIC, 1);
            pipeline.probe
                    .kafka
                    .admin()
                    .incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, TOPIC),
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("max.message.bytes", String.valueOf(MOST_RECORD_BYTES)),
                                    AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
            try (ElasticsearchConnection elasticsearch =
                    new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 10_000)) {
                for (SinkUnderTest sink : SINKS) {
                    pipeline.topic(sink.deadLetters(), 1);
                    pipeline.index(sink.index(), 1);
                    // kept in _source, not analysed: 24 MB of text would cost the shared two cores most of the test's
                    // time
                    Request mapping = new Request("PUT", "/" + sink.index() + "/_mapping");
                    mapping.setJsonEntity("{\"properties\":{\"text\":{\"type\":\"object\",\"enabled\":false}}}");
                    elasticsearch.restClient().performRequest(mapping);
                }
            }
            produce(stack, corpus);
            for (SinkUnderTest sink : SINKS) {
                pipeline.connector(sink.connector(), sink.config(stack, TOPIC));
            }

            for (SinkUnderTest sink : SINKS) {
                Poll.untilTrue(
                        sink.mode() + ": every record committed",
                        Duration.ofSeconds(90),
                        Duration.ofMillis(500),
                        () -> sink.committed(pipeline.probe, TOPIC) == corpus.size(),
                        () -> "committed " + sink.committed(pipeline.probe, TOPIC) + " of " + corpus.size() + "; "
                                + pipeline.probe
                                        .connect
                                        .connectorStatus(sink.connector())
                                        .tasks());
            }
            try (ElasticsearchConnection elasticsearch =
                    new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 10_000)) {
                for (SinkUnderTest sink : SINKS) {
                    reconcile(stack, elasticsearch, pipeline, sink, corpus);
                }
                for (String elsewhere : List.of("other", "hostile-elsewhere")) {
                    assertEquals(
                            404,
                            status(elasticsearch, "HEAD", "/" + elsewhere),
                            "no index " + elsewhere + " was written");
                }
                assertEquals(
                        200,
                        status(elasticsearch, "HEAD", "/" + StackOptions.INDEX),
                        "the shared stack's index was not deleted");
            }
        }
        System.out.printf(
                "[hostile] %d records through both modes, reconciled in %.1f s%n",
                corpus.size(), (System.nanoTime() - started) / 1e9);
    }

    private static List<Hostile> corpus() {
        List<Hostile> corpus = new ArrayList<>();
        List<Map.Entry<String, String>> steering = List.of(
                Map.entry("CamelHeader.operation", "DeleteIndex"),
                Map.entry("CamelHeader.indexName", "*"),
                Map.entry("CamelHeader.indexName", "other"),
                Map.entry("CamelHeader.CamelAggregationCompleteAllGroups", "true"),
                Map.entry("CamelHeader.CamelAggregationCompleteAllGroupsInclusive", "true"),
                Map.entry("CamelHeader.kcscale.coordinates", TOPIC + "-0-0"),
                Map.entry("CamelHeader.indexId", "forged"),
                Map.entry("CamelHeader.waitForActiveShards", "9"),
                Map.entry("CamelHeader.routing", "elsewhere"),
                Map.entry("CamelProperty.CamelAggregationCompleteCurrentGroup", "true"),
                Map.entry("CamelProperty.CamelAggregationCompleteAllGroups", "true"));
        for (int i = 0; i < steering.size(); i++) {
            Map.Entry<String, String> header = steering.get(i);
            corpus.add(new Hostile(
                    "header " + header.getKey() + "=" + header.getValue(),
                    key("steer"),
                    utf8("{\"steered" + i + "\":1}"),
                    List.of(header),
                    Destination.INDEX));
        }
        corpus.add(new Hostile("every steering header at once", key("steer"), utf8("{}"), steering, Destination.INDEX));
        corpus.add(new Hostile(
                "a 1 MB record",
                key("big"),
                utf8("{\"pad\":\"" + "x".repeat(1_000_000) + "\"}"),
                List.of(),
                Destination.INDEX));
        for (int i = 0; i < LARGE_DOCUMENTS; i++) {
            corpus.add(new Hostile(
                    "a 200 KB document",
                    key("large"),
                    utf8("{\"large\":" + i + ",\"text\":\"" + "word ".repeat(40_000) + "\"}"),
                    List.of(),
                    Destination.INDEX));
        }
        corpus.add(new Hostile("a null key", null, utf8("{\"keyless\":true}"), List.of(), Destination.INDEX));
        corpus.add(new Hostile(
                "U+010A in UTF-8",
                key("text"),
                utf8("{\"\u010A\":\"\u010A \uD83D\uDE00\"}"),
                List.of(),
                Destination.INDEX));
        String trade = "{\"symbol\":\"\u010A\"}";
        for (String encoding : List.of("UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE", "UTF-16")) {
            corpus.add(new Hostile(
                    encoding + " JSON",
                    key("text"),
                    trade.getBytes(Charset.forName(encoding)),
                    OWN_HEADERS,
                    Destination.DEAD_LETTERS));
        }
        corpus.add(new Hostile(
                "a UTF-8 byte order mark", key("text"), utf8("\uFEFF" + trade), OWN_HEADERS, Destination.DEAD_LETTERS));
        corpus.add(new Hostile(
                "bytes that are no UTF-8",
                key("text"),
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, '"', '}'},
                OWN_HEADERS,
                Destination.DEAD_LETTERS));
        corpus.add(new Hostile(
                "a raw control byte",
                key("text"),
                new byte[] {'{', '"', 'a', '"', ':', '"', 1, '"', '}'},
                OWN_HEADERS,
                Destination.DEAD_LETTERS));
        corpus.add(new Hostile("a tombstone", key("gone"), null, OWN_HEADERS, Destination.DEAD_LETTERS));
        byte[] garbage = new byte[512];
        new Random(27).nextBytes(garbage);
        corpus.add(new Hostile("binary garbage", key("garbage"), garbage, OWN_HEADERS, Destination.DEAD_LETTERS));
        corpus.add(new Hostile("not JSON", key("text"), utf8("not json{"), OWN_HEADERS, Destination.DEAD_LETTERS));
        corpus.add(new Hostile("a JSON array", key("text"), utf8("[1,2]"), OWN_HEADERS, Destination.DEAD_LETTERS));
        corpus.add(new Hostile(
                "nesting 500 deep",
                key("deep"),
                utf8("{\"d\":".repeat(500) + "1" + "}".repeat(500)),
                OWN_HEADERS,
                Destination.EITHER));
        corpus.add(new Hostile(
                "a 40-digit integer",
                key("number"),
                utf8("{\"huge\":1234567890123456789012345678901234567890}"),
                OWN_HEADERS,
                Destination.EITHER));
        corpus.add(new Hostile("1e400", key("number"), utf8("{\"overflow\":1e400}"), OWN_HEADERS, Destination.EITHER));
        corpus.add(new Hostile(
                "duplicate keys", key("twice"), utf8("{\"dup\":1,\"dup\":2}"), OWN_HEADERS, Destination.EITHER));
        corpus.add(new Hostile(
                "a last plain document", key("last"), utf8("{\"last\":true}"), List.of(), Destination.INDEX));
        return corpus;
    }

    private static byte[] key(String key) {
        return utf8(key);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void produce(LocalStack stack, List<Hostile> corpus) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.endpoints().kafkaBootstrap(),
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                MOST_RECORD_BYTES,
                ProducerConfig.ACKS_CONFIG,
                "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Hostile hostile : corpus) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(TOPIC, 0, hostile.key(), hostile.value());
                hostile.headers().forEach(header -> record.headers().add(header.getKey(), utf8(header.getValue())));
                // one at a time, in order: offset i is corpus entry i
                producer.send(record).get();
            }
        }
    }

    private static void reconcile(
            LocalStack stack,
            ElasticsearchConnection elasticsearch,
            ScratchPipeline pipeline,
            SinkUnderTest sink,
            List<Hostile> corpus)
            throws IOException {
        Set<String> ids = documentIds(elasticsearch, sink.index());
        Map<Long, List<SinkUnderTest.DeadLetter>> deadLetters = sink.deadLetterCopies(stack);
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        for (int offset = 0; offset < corpus.size(); offset++) {
            Hostile hostile = corpus.get(offset);
            String id = TOPIC + "-0-" + offset;
            boolean indexed = ids.contains(id);
            List<SinkUnderTest.DeadLetter> copies = deadLetters.getOrDefault((long) offset, List.of());
            List<String> reasons =
                    copies.stream().map(SinkUnderTest.DeadLetter::reason).toList();
            String where = sink.mode() + ", offset " + offset + " (" + hostile.what() + "): indexed " + indexed
                    + ", dead letters " + reasons;
            assertEquals(
                    1,
                    (indexed ? 1 : 0) + reasons.size(),
                    "exactly once in the index or the dead-letter topic: " + where);
            Destination actual = indexed ? Destination.INDEX : Destination.DEAD_LETTERS;
            assertTrue(hostile.expected() == Destination.EITHER || hostile.expected() == actual, where);
            if (!indexed) {
                String reason = reasons.get(0);
                assertTrue(
                        reason.contains("offset " + offset + " ") || reason.contains("document " + id + ":"),
                        "the dead letter names its record: " + where);
                assertIsTheRecordAsProduced(hostile, copies.get(0), where);
            } else if (hostile.value().length < 2_000_000) {
                assertArrayEquals(
                        hostile.value(), source(elasticsearch, sink.index(), id), "stored byte for byte: " + where);
            }
            outcomes.merge(hostile.what() + " -> " + actual, 1, Integer::sum);
        }
        assertEquals(
                ids.stream().filter(id -> id.matches(TOPIC + "-0-\\d+")).count(),
                ids.size(),
                "only the sink's own ids: " + ids);
        ConnectorStatus status = pipeline.probe.connect.connectorStatus(sink.connector());
        assertEquals(1, status.tasksInState("RUNNING"), sink.mode() + ": the task carries on: " + status.tasks());
        System.out.printf(
                "[hostile] %s: %d indexed, %d dead letters: %s%n",
                sink.mode(),
                ids.size(),
                deadLetters.values().stream().mapToInt(List::size).sum(),
                outcomes);
    }

    /** The copy holds the record's value and its own headers, in order, byte for byte; after them only Connect's. */
    private static void assertIsTheRecordAsProduced(Hostile hostile, SinkUnderTest.DeadLetter copy, String where) {
        assertArrayEquals(hostile.value(), copy.value(), "the dead letter's value: " + where);
        List<String> own = hostile.headers().stream()
                .map(header -> header.getKey() + "=" + HexFormat.of().formatHex(utf8(header.getValue())))
                .toList();
        List<String> held = copy.headers().stream()
                .map(header -> header.key() + "=" + HexFormat.of().formatHex(header.value()))
                .toList();
        assertEquals(own, held.subList(0, Math.min(own.size(), held.size())), "the record's own headers: " + where);
        assertTrue(
                held.subList(own.size(), held.size()).stream().allMatch(h -> h.startsWith("__connect.errors.")),
                "then Connect's context headers: " + held + ", " + where);
    }

    private static Set<String> documentIds(ElasticsearchConnection elasticsearch, String index) throws IOException {
        elasticsearch.restClient().performRequest(new Request("POST", "/" + index + "/_refresh"));
        Request search = new Request("GET", "/" + index + "/_search");
        search.setJsonEntity("{\"size\":1000,\"_source\":false,\"query\":{\"match_all\":{}}}");
        Response response = elasticsearch.restClient().performRequest(search);
        Set<String> ids = new HashSet<>();
        JSON.readTree(response.getEntity().getContent())
                .path("hits")
                .path("hits")
                .forEach(hit -> ids.add(hit.path("_id").asText()));
        return ids;
    }

    private static byte[] source(ElasticsearchConnection elasticsearch, String index, String id) throws IOException {
        Response response =
                elasticsearch.restClient().performRequest(new Request("GET", "/" + index + "/_source/" + id));
        return response.getEntity().getContent().readAllBytes();
    }

    private static int status(ElasticsearchConnection elasticsearch, String method, String path) throws IOException {
        try {
            return elasticsearch
                    .restClient()
                    .performRequest(new Request(method, path))
                    .getStatusLine()
                    .getStatusCode();
        } catch (ResponseException e) {
            return e.getResponse().getStatusLine().getStatusCode();
        }
    }
}
