package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.elasticsearch.ElasticsearchBatchReading;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchReadingsClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchUnavailableException;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.SinkClusterReadings;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.scaler.service.Setting;
import io.kcscale.tests.fixtures.ElasticsearchChildNode;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Elasticsearch version matrix: the scaler's observer and the {@code index-shards} check against the
 * shared stack's 7.17 node, an 8.19 node, a 9.x node and an OpenSearch 2.19 node (child JVMs; 9.x on JDK 21+).
 * The Camel sink cannot write to 8.x and 9.x, so the test indexes with a plain {@code _bulk} and names the index for a file sink
 * ({@code index.CONNECTOR}) on the shared Kafka and Connect: the scaler reads that index's counters,
 * shards and data nodes from whichever node it is pointed at.
 */
@Order(4)
@ExtendWith(SharedStack.class)
class ElasticsearchVersionsTest {

    private static final String SINK = "versions-file-sink";
    private static final String INDEX = "versions-matrix";
    private static final int DOCUMENTS = 500;
    private static final String CAMEL_SINK = "versions-camel-sink";
    private static final String CAMEL_INDEX = "versions-camel";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SETTLE = Duration.ofSeconds(90);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void elasticsearch717(LocalStack stack) throws Exception {
        observeAndCheck(stack, stack.endpoints().elasticsearchUrl(), "7.17");
    }

    @Test
    void elasticsearch8(LocalStack stack) throws Exception {
        onChildNode(stack, ElasticsearchChildNode.Version.V8, "8.");
    }

    @Test
    void elasticsearch9(LocalStack stack) throws Exception {
        onChildNode(stack, ElasticsearchChildNode.Version.V9, "9.");
    }

    /** One node start for the observer and the per-record sink. */
    @Test
    void opensearch2(LocalStack stack) throws Exception {
        try (ElasticsearchChildNode node = childNode(ElasticsearchChildNode.Version.OPENSEARCH2)) {
            observeAndCheck(stack, node.url(), "2.19.");
            perRecordSinkWritesOnce(stack, node.url());
        }
    }

    private static void onChildNode(LocalStack stack, ElasticsearchChildNode.Version version, String versionPrefix)
            throws Exception {
        try (ElasticsearchChildNode node = childNode(version)) {
            observeAndCheck(stack, node.url(), versionPrefix);
        }
    }

    private static ElasticsearchChildNode childNode(ElasticsearchChildNode.Version version) throws Exception {
        Path home = Path.of(System.getProperty("kcscale.home", ".."))
                .toAbsolutePath()
                .normalize();
        Path data = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "node-" + version + "-");
        return ElasticsearchChildNode.start(version, home, data);
    }

    /**
     * The stack's per-record sink from a one-partition topic into {@code cluster}: it sends each record through its
     * low-level client and reads only the answer's status, so OpenSearch's answer completes the write: the document
     * lands once (version 1) and its offset is committed. What the README and docs say of it.
     */
    private static void perRecordSinkWritesOnce(LocalStack stack, URI cluster) throws Exception {
        String topic = "versions-camel-topic";
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic(topic, 1);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            stack.endpoints().kafkaBootstrap()),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>(topic, "k0", "{\"n\":0}")).get();
            }
            scratch.connector(
                    CAMEL_SINK,
                    stack.connectorConfig(
                            "stocks-es-sink.json",
                            Map.of(
                                    "TOPIC",
                                    topic,
                                    "INDEX",
                                    CAMEL_INDEX,
                                    "SINK_TASKS",
                                    "1",
                                    "ES_HOST_PORT",
                                    cluster.getHost() + ":" + cluster.getPort())));
            // the per-record sink's document id is topic-partition-offset: a version above 1 is the same record written
            // again
            String document = "/" + CAMEL_INDEX + "/_doc/" + topic + "-0-0";
            Poll.untilTrue(
                    "the per-record sink's first write to land and its offset to be committed",
                    SETTLE,
                    Duration.ofMillis(500),
                    () -> Long.valueOf(1)
                            .equals(scratch.probe
                                    .kafka
                                    .committedOffsets(SinkTarget.consumerGroup(CAMEL_SINK), topic)
                                    .get(0)),
                    () -> "document " + document + " at version " + documentVersion(cluster, document) + ", tasks "
                            + scratch.probe.connect.connectorStatus(CAMEL_SINK).tasks());
            assertEquals(1, documentVersion(cluster, document), "written once");
        }
    }

    private static void observeAndCheck(LocalStack stack, URI elasticsearch, String version) throws Exception {
        JsonNode root = json(send(elasticsearch, "GET", "/_nodes/_local", null));
        assertTrue(root.path("nodes").elements().next().path("version").asText().startsWith(version), root.toString());
        send(elasticsearch, "PUT", "/" + INDEX, "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0}}");
        try (ScratchPipeline scratch = new ScratchPipeline(stack);
                ElasticsearchConnection connection = new ElasticsearchConnection(elasticsearch, 10_000)) {
            scratch.topic("versions-topic", 3);
            Map<String, String> sink = new LinkedHashMap<>(Map.of(
                    "connector.class",
                    "org.apache.kafka.connect.file.FileStreamSinkConnector",
                    "tasks.max",
                    "3",
                    "topics",
                    "versions-topic",
                    "file",
                    Path.of("target", "versions-sink.txt").toAbsolutePath().toString()));
            scratch.connector(SINK, sink);
            scratch.awaitRunning(SINK, 3);
            ScalerService service = new ScalerService(ScalerSettings.fromValues(Map.of(
                    "connect.url",
                    stack.endpoints().connectUrl().toString(),
                    // a scaler of its own: replicas with one id share policies and a leader, the shared stack's
                    // included
                    "scaler.cluster.id",
                    "elasticsearch-versions-test",
                    "kafka.bootstrap.servers",
                    stack.endpoints().kafkaBootstrap(),
                    "elasticsearch.url",
                    elasticsearch.toString(),
                    "window.seconds",
                    "6",
                    "sample.interval.seconds",
                    "1",
                    Setting.INDEX.key() + SINK,
                    INDEX,
                    "state.dir",
                    Files.createTempDirectory("kcscale-versions-state").toString())));
            service.start();
            try (ApiServer api =
                    ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service))) {
                ScalerHttp scaler = new ScalerHttp(
                        URI.create("http://127.0.0.1:" + api.address().getPort()));
                String path = "/api/v1/connectors/" + SINK;
                scaler.awaitGet(
                        path, s -> s.path("elasticsearch").path("primaryShards").isNumber(), SETTLE);

                // the observer reads the node's counters exactly: every bulk operation is one index operation
                bulk(elasticsearch, DOCUMENTS);
                ElasticsearchReadingsClient observer = new ElasticsearchReadingsClient(connection);
                assertEquals(DOCUMENTS, observer.indexStats(INDEX).indexTotal(), version);
                ElasticsearchReadingsClient.IndexLayout layout = observer.indexLayout(INDEX);
                assertEquals(new ElasticsearchReadingsClient.IndexLayout(1, 0, 1, null, 0), layout, version);
                assertTrue(observer.writePressure().rejected() >= 0);
                // a sampling round's one reading for many indexes: the same figures, and a missing index fails alone
                ElasticsearchBatchReading round = observer.read(List.of(INDEX, "versions-missing"));
                assertEquals(DOCUMENTS, round.indexStats(INDEX).indexTotal(), version);
                assertEquals(layout, round.indexLayout(INDEX), version);
                assertThrows(
                        ElasticsearchUnavailableException.class, () -> round.indexStats("versions-missing"), version);

                // the scaler sees the index rate and the shards, and index-shards judges them: 1 shard for 3 tasks
                JsonNode s = scaler.awaitGet(
                        path, n -> n.path("rates").path("indexPerSecond").asDouble() > 0, SETTLE);
                assertEquals(0, s.path("unreachable").size(), s.toString());
                assertEquals(INDEX, s.path("elasticsearch").path("index").asText());
                assertEquals(1, s.path("elasticsearch").path("dataNodes").asInt());
                JsonNode shards = ScalingChecksTest.finding(
                        scaler.get(path + "/checks?sampleRecords=100&sampleSeconds=1")
                                .body(),
                        "index-shards");
                assertEquals("warning", shards.path("severity").asText(), shards.toString());
                assertEquals(1, shards.path("evidence").path("primaryShards").asInt(), shards.toString());
                assertEquals(3, shards.path("evidence").path("tasks").asInt(), shards.toString());
                assertTrue(shards.path("title").asText().startsWith("1 primary shard for 3 tasks"), shards.toString());
                writeIndexesResolved(elasticsearch, observer, version);

                // the block a node's flood-stage watermark sets, read from every product's settings, holds the sink
                String block = "index.blocks.read_only_allow_delete";
                send(elasticsearch, "PUT", "/" + INDEX + "/_settings", "{\"" + block + "\":true}");
                try {
                    assertEquals(
                            block,
                            observer.read(List.of(INDEX)).indexLayout(INDEX).writeBlock(),
                            version);
                    JsonNode blocked = scaler.awaitGet(
                            path, n -> n.path("reasons").toString().contains("refuses writes"), SETTLE);
                    assertEquals(
                            block,
                            blocked.path("elasticsearch")
                                    .path("indexes")
                                    .path(0)
                                    .path("writeBlock")
                                    .asText(),
                            version + ": " + blocked);
                    assertFalse(blocked.path("stable").asBoolean(), blocked.toString());
                } finally {
                    send(elasticsearch, "PUT", "/" + INDEX + "/_settings", "{\"" + block + "\":null}");
                }

                // an index whose primaries no node may hold turns the cluster red: its own count is read, the sink's
                // index still has every primary
                String red = "versions-red";
                send(
                        elasticsearch,
                        "PUT",
                        "/" + red + "?wait_for_active_shards=0",
                        "{\"settings\":{\"number_of_shards\":2,\"number_of_replicas\":0,"
                                + "\"index.routing.allocation.require._name\":\"nowhere\"}}");
                try {
                    ElasticsearchBatchReading both = observer.read(List.of(INDEX, red));
                    assertEquals(2, both.indexLayout(red).inactivePrimaries(), version);
                    assertEquals(0, both.indexLayout(INDEX).inactivePrimaries(), version);
                } finally {
                    send(elasticsearch, "DELETE", "/" + red, null);
                }
            } finally {
                service.close();
            }
        } finally {
            send(elasticsearch, "DELETE", "/" + INDEX + "?ignore_unavailable=true", null);
        }
    }

    /**
     * Each name a sink may write to resolved to its write index in one round: an index to itself, a rolling alias to the
     * index it marks (followed through a rollover), a data stream to its newest backing index (followed through a
     * rollover), and what cannot be written to (an alias of two indexes marking none, a name that is nothing) as one
     * line on that name alone, the others read still.
     */
    private static void writeIndexesResolved(URI elasticsearch, ElasticsearchReadingsClient observer, String version)
            throws Exception {
        String alias = "versions-logs";
        String stream = "versions-stream";
        String unmarked = "versions-unmarked";
        List<String> names = List.of(INDEX, alias, stream, unmarked, "versions-nothing");
        // the Elasticsearch nodes here run without the module that holds data streams (x-pack in 7, data-streams in 8
        // and 9); OpenSearch has them in its core
        boolean dataStreams = version.startsWith("2.");
        try {
            send(
                    elasticsearch,
                    "PUT",
                    "/" + alias + "-000001",
                    "{\"settings\":{\"number_of_shards\":2,\"number_of_replicas\":0}," + "\"aliases\":{\"" + alias
                            + "\":{\"is_write_index\":true}}}");
            if (dataStreams) {
                send(
                        elasticsearch,
                        "PUT",
                        "/_index_template/" + stream,
                        "{\"index_patterns\":[\"" + stream + "*\"],\"data_stream\":{},"
                                + "\"priority\":500,\"template\":{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0}}}");
                send(elasticsearch, "PUT", "/_data_stream/" + stream, null);
            }
            for (String index : List.of(unmarked + "-a", unmarked + "-b")) {
                send(
                        elasticsearch,
                        "PUT",
                        "/" + index,
                        "{\"settings\":{\"number_of_replicas\":0},\"aliases\":{\"" + unmarked + "\":{}}}");
            }
            send(elasticsearch, "POST", "/" + alias + "/_doc?refresh=true", "{\"n\":1}");
            SinkClusterReadings.Batch before = observer.read(names);
            assertEquals(new SinkClusterReadings.WriteIndex(INDEX, null), before.writeIndex(INDEX), version);
            assertEquals(
                    new SinkClusterReadings.WriteIndex(alias + "-000001", null), before.writeIndex(alias), version);
            assertEquals(1, before.indexStats(alias + "-000001").indexTotal(), version);
            assertEquals(2, before.indexLayout(alias + "-000001").primaryShards(), version);
            String firstBacking = before.writeIndex(stream).index();
            if (dataStreams) {
                assertTrue(firstBacking.startsWith(".ds-" + stream + "-"), firstBacking);
            } else {
                assertTrue(
                        before.writeIndex(stream)
                                .problem()
                                .startsWith("no index, alias or data stream named " + stream),
                        version);
            }
            assertNull(before.writeIndex(unmarked).index(), version);
            assertTrue(
                    before.writeIndex(unmarked)
                            .problem()
                            .startsWith("alias " + unmarked + " has no write index: it points at 2 indexes [" + unmarked
                                    + "-a, " + unmarked + "-b]"),
                    before.writeIndex(unmarked).problem());
            assertTrue(
                    before.writeIndex("versions-nothing")
                            .problem()
                            .startsWith("no index, alias or data stream named versions-nothing"),
                    before.writeIndex("versions-nothing").problem());

            send(
                    elasticsearch,
                    "POST",
                    "/" + alias + "/_rollover",
                    "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0}}");
            if (dataStreams) {
                send(elasticsearch, "POST", "/" + stream + "/_rollover", null);
            }
            send(elasticsearch, "POST", "/" + alias + "/_doc?refresh=true", "{\"n\":2}");
            SinkClusterReadings.Batch after = observer.read(names);
            assertEquals(new SinkClusterReadings.WriteIndex(alias + "-000002", null), after.writeIndex(alias), version);
            assertEquals(1, after.indexStats(alias + "-000002").indexTotal(), version);
            assertEquals(1, after.indexLayout(alias + "-000002").primaryShards(), version);
            if (dataStreams) {
                String secondBacking = after.writeIndex(stream).index();
                assertTrue(
                        secondBacking.startsWith(".ds-" + stream + "-") && !secondBacking.equals(firstBacking),
                        secondBacking);
                assertEquals(1, after.indexLayout(secondBacking).primaryShards(), version);
            }
            // the scale's pause counter: every index behind the alias, so it keeps counting through the rollover
            assertEquals(2, observer.indexTotal(List.of(alias)), version);
        } finally {
            if (dataStreams) {
                send(elasticsearch, "DELETE", "/_data_stream/" + stream, null);
                send(elasticsearch, "DELETE", "/_index_template/" + stream, null);
            }
            send(
                    elasticsearch,
                    "DELETE",
                    "/" + alias + "-000001," + alias + "-000002," + unmarked + "-a," + unmarked
                            + "-b?ignore_unavailable=true",
                    null);
        }
    }

    /** {@code documents} index operations in one {@code _bulk}, refreshed so that the counters are final. */
    private static void bulk(URI elasticsearch, int documents) throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < documents; i++) {
            body.append("{\"index\":{\"_index\":\"")
                    .append(INDEX)
                    .append("\",\"_id\":\"")
                    .append(i)
                    .append("\"}}\n")
                    .append("{\"n\":")
                    .append(i)
                    .append("}\n");
        }
        JsonNode answer = json(send(elasticsearch, "POST", "/_bulk?refresh=true", body.toString()));
        assertEquals(false, answer.path("errors").asBoolean(true), answer.toString());
    }

    private static String send(URI elasticsearch, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(elasticsearch.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", path.startsWith("/_bulk") ? "application/x-ndjson" : "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300 && !((method.equals("DELETE") || method.equals("GET")) && r.statusCode() == 404)) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** The document's {@code _version}; 0 while there is none. */
    private static int documentVersion(URI cluster, String document) {
        try {
            return json(send(cluster, "GET", document, null)).path("_version").asInt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }
}
