package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchReadingsClient;
import io.kcscale.scaler.ports.SinkClusterReadings;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.scaler.service.Setting;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A sink of several indexes on the real stack, one of them a rolling alias: the scaler lists each index with its write
 * index, shards and rate, follows the alias through {@code POST alias/_rollover} to its new write index and judges that
 * one's shards, and says in one line that an alias marking no write index cannot be written to, while it keeps serving
 * the stack's own sink. The stack has no Confluent sink, so a file sink is named its indexes ({@code index.CONNECTOR}
 * as a comma list) and the test writes to them with {@code _bulk}; the per-topic names Confluent's and Aiven's sinks
 * write are derived in {@code SinkTargetTest}.
 */
@ExtendWith(SharedStack.class)
class SinkIndexesTest {

    private static final String SINK = "indexes-file-sink";
    private static final String ORDERS = "indexes-orders";
    private static final String LOGS = "indexes-logs";
    private static final String UNMARKED = "indexes-unmarked";
    private static final Duration SETTLE = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void eachIndexIsJudgedAndARollingAliasIsFollowedToItsNewWriteIndex(LocalStack stack) throws Exception {
        URI es = stack.endpoints().elasticsearchUrl();
        String threeShards = "{\"settings\":{\"number_of_shards\":3,\"number_of_replicas\":0}";
        send(es, "PUT", "/" + ORDERS, threeShards + "}");
        send(
                es,
                "PUT",
                "/" + LOGS + "-000001",
                threeShards + ",\"aliases\":{\"" + LOGS + "\":{\"is_write_index\":true}}}");
        for (String index : List.of(UNMARKED + "-a", UNMARKED + "-b")) {
            send(
                    es,
                    "PUT",
                    "/" + index,
                    "{\"settings\":{\"number_of_replicas\":0},\"aliases\":{\"" + UNMARKED + "\":{}}}");
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<Exception> writeFailure = new AtomicReference<>();
        Thread writer = new Thread(
                () -> {
                    // a steady trickle into the plain index and through the alias: the pacing of a load, not a wait for
                    // a state
                    int n = 0;
                    while (writing.get()) {
                        try {
                            StringBuilder body = new StringBuilder();
                            for (String target : List.of(ORDERS, LOGS)) {
                                body.append("{\"index\":{\"_index\":\"")
                                        .append(target)
                                        .append("\"}}\n{\"n\":")
                                        .append(n++)
                                        .append("}\n");
                            }
                            send(es, "POST", "/_bulk", body.toString());
                            Thread.sleep(100);
                        } catch (InterruptedException e) {
                            return;
                        } catch (Exception e) {
                            writeFailure.set(e);
                            return;
                        }
                    }
                },
                "sink-indexes-writer");
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic("indexes-topic", 3);
            scratch.connector(
                    SINK,
                    Map.of(
                            "connector.class",
                            "org.apache.kafka.connect.file.FileStreamSinkConnector",
                            "tasks.max",
                            "3",
                            "topics",
                            "indexes-topic",
                            "file",
                            Path.of("target", "indexes-sink.txt")
                                    .toAbsolutePath()
                                    .toString()));
            scratch.awaitRunning(SINK, 3);
            writer.start();
            ScalerService service = new ScalerService(ScalerSettings.fromValues(Map.of(
                    "connect.url",
                    stack.endpoints().connectUrl().toString(),
                    "scaler.cluster.id",
                    "sink-indexes-test",
                    "kafka.bootstrap.servers",
                    stack.endpoints().kafkaBootstrap(),
                    "elasticsearch.url",
                    es.toString(),
                    "window.seconds",
                    "6",
                    "sample.interval.seconds",
                    "1",
                    Setting.INDEX.key() + SINK,
                    ORDERS + "," + LOGS + "," + UNMARKED,
                    "state.dir",
                    Files.createTempDirectory("kcscale-indexes-state").toString())));
            service.start();
            try (ApiServer api =
                    ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service))) {
                ScalerHttp scaler = new ScalerHttp(
                        URI.create("http://127.0.0.1:" + api.address().getPort()));
                String path = "/api/v1/connectors/" + SINK;

                JsonNode s = scaler.awaitGet(path, n -> rate(n, LOGS) > 0 && rate(n, ORDERS) > 0, SETTLE);
                JsonNode indexes = s.path("elasticsearch").path("indexes");
                assertEquals(3, indexes.size(), s.toString());
                assertTrue(
                        s.path("elasticsearch").path("index").isMissingNode(),
                        "no single index for a sink of several: " + s);
                assertEquals(LOGS + "-000001", index(s, LOGS).path("writeIndex").asText(), s.toString());
                assertEquals(3, index(s, LOGS).path("primaryShards").asInt(), s.toString());
                assertEquals(ORDERS, index(s, ORDERS).path("writeIndex").asText(), s.toString());
                assertTrue(
                        index(s, UNMARKED)
                                .path("problem")
                                .asText()
                                .startsWith("alias " + UNMARKED + " has no write index: it points at 2" + " indexes ["
                                        + UNMARKED + "-a, " + UNMARKED + "-b]"),
                        s.toString());
                assertEquals(
                        0, s.path("unreachable").size(), "one alias that cannot be written to is no system down: " + s);
                assertEquals(
                        s.path("rates").path("indexPerSecond").asDouble(),
                        rate(s, LOGS) + rate(s, ORDERS),
                        1e-6,
                        "the sink's index rate is its write indexes' together");
                JsonNode before = ScalingChecksTest.finding(
                        scaler.get(path + "/checks?sampleRecords=100&sampleSeconds=1")
                                .body(),
                        "index-shards");
                assertEquals("info", before.path("severity").asText(), before.toString());
                assertTrue(
                        before.path("title")
                                .asText()
                                .contains("the shards of index " + UNMARKED + " are unknown (alias " + UNMARKED
                                        + " has no write index"),
                        before.toString());

                // the stack's own sink is served still, its one index as before
                JsonNode own = scaler.awaitGet(
                        "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR,
                        n -> n.path("elasticsearch").path("primaryShards").isNumber(),
                        SETTLE);
                assertEquals(
                        StackOptions.INDEX,
                        own.path("elasticsearch").path("index").asText(),
                        own.toString());

                // the rollover makes a one-shard write index: the scaler follows it and judges its shards, naming it
                send(
                        es,
                        "POST",
                        "/" + LOGS + "/_rollover",
                        "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0}}");
                JsonNode rolled = scaler.awaitGet(
                        path,
                        n -> (LOGS + "-000002")
                                        .equals(index(n, LOGS)
                                                .path("writeIndex")
                                                .asText())
                                && rate(n, LOGS) > 0,
                        SETTLE);
                assertEquals(1, index(rolled, LOGS).path("primaryShards").asInt(), rolled.toString());
                JsonNode after = ScalingChecksTest.finding(
                        scaler.get(path + "/checks?sampleRecords=100&sampleSeconds=1")
                                .body(),
                        "index-shards");
                assertEquals("warning", after.path("severity").asText(), after.toString());
                assertTrue(
                        after.path("title")
                                .asText()
                                .startsWith("index " + LOGS + " (write index " + LOGS + "-000002): 1 primary shard"
                                        + " for 3 tasks"),
                        after.toString());
                assertTrue(
                        !after.path("title").asText().contains(ORDERS),
                        "the index with 3 shards is not named: " + after);
                assertTrue(
                        after.path("advice").asText().contains("POST " + LOGS + "-000002/_split/"), after.toString());
                assertNull(writeFailure.get(), "every bulk write landed");
            } finally {
                service.close();
            }
        } finally {
            writing.set(false);
            writer.interrupt();
            writer.join(10_000);
            send(
                    es,
                    "DELETE",
                    "/" + String.join(",", ORDERS, LOGS + "-000001", LOGS + "-000002", UNMARKED + "-a", UNMARKED + "-b")
                            + "?ignore_unavailable=true",
                    null);
        }
    }

    /** The entry of {@code name} in the snapshot's indexes, or a missing node. */
    private static JsonNode index(JsonNode snapshot, String name) {
        for (JsonNode i : snapshot.path("elasticsearch").path("indexes")) {
            if (name.equals(i.path("name").asText())) {
                return i;
            }
        }
        return JSON.missingNode();
    }

    private static double rate(JsonNode snapshot, String name) {
        return index(snapshot, name).path("indexPerSecond").asDouble();
    }

    /**
     * A fleet's indexes in one round: 40 indexes of 120-character names and an alias of one of them make a list longer
     * than the request line Elasticsearch takes (4 KiB), which it refuses whole; the reading asks in several requests
     * and has every index, the alias resolved, and the operations of each index counted once.
     */
    @Test
    void aFleetOfIndexesLongerThanARequestLineIsReadWhole(LocalStack stack) throws Exception {
        URI es = stack.endpoints().elasticsearchUrl();
        List<String> names = new ArrayList<>();
        StringBuilder bulk = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            String name = String.format("fleet-%02d-", i) + "x".repeat(111);
            names.add(name);
            bulk.append("{\"index\":{\"_index\":\"")
                    .append(name)
                    .append("\"}}\n{\"n\":")
                    .append(i)
                    .append("}\n");
        }
        String alias = "fleet-alias-" + "y".repeat(100);
        try {
            for (String name : names) {
                send(es, "PUT", "/" + name, "{\"settings\":{\"number_of_replicas\":0}}");
            }
            send(
                    es,
                    "POST",
                    "/_aliases",
                    "{\"actions\":[{\"add\":{\"index\":\"" + names.get(0) + "\",\"alias\":\"" + alias
                            + "\",\"is_write_index\":true}}]}");
            send(es, "POST", "/_bulk?refresh=true", bulk.toString());
            List<String> all = new ArrayList<>(names);
            all.add(alias);

            // the premise: the whole list in one path is refused
            HttpResponse<String> whole = HTTP.send(
                    HttpRequest.newBuilder(es.resolve("/" + String.join(",", all) + "/_stats/indexing"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, whole.statusCode(), whole.body());

            try (ElasticsearchConnection connection = new ElasticsearchConnection(es, 10_000)) {
                ElasticsearchReadingsClient client = new ElasticsearchReadingsClient(connection);
                SinkClusterReadings.Batch batch = client.read(all);
                for (String name : names) {
                    assertEquals(name, batch.writeIndex(name).index(), name);
                    assertEquals(1, batch.indexStats(name).docsCount(), name);
                }
                assertEquals(names.get(0), batch.writeIndex(alias).index(), "the alias's write index");
                assertNull(batch.writeIndex(alias).problem());
                assertEquals(40, client.indexTotal(all), "one operation on each index, the alias's counted once");
            }
        } finally {
            for (String name : names) {
                send(es, "DELETE", "/" + name + "?ignore_unavailable=true", null);
            }
        }
    }

    private static String send(URI elasticsearch, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(elasticsearch.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", path.startsWith("/_bulk") ? "application/x-ndjson" : "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }
}
