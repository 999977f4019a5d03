package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.scaler.service.Setting;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scaler on sinks that are not Elasticsearch's, on the shared stack: Kafka's own
 * {@code FileStreamSinkConnector} (on the workers' classpath, as Kafka's distribution ships it) reading
 * a listed topic, and one subscribed by {@code topics.regex} whose index an operator names with
 * {@code index.CONNECTOR}. Everything but the index works: status, lag, per-task rates, latency, the
 * checks, scale, autoscale and {@code predict tasks --measure}; {@code index-shards} says it does not
 * apply. A scaler of its own with a 6 s window lets the new sinks' figures settle in seconds.
 */
@Order(4)
@ExtendWith(SharedStack.class)
class AnySinkTest {

    private static final String FILE_SINK_CLASS = "org.apache.kafka.connect.file.FileStreamSinkConnector";
    private static final String REGEX_SINK = "anysink-regex-sink";
    private static final String NAMED_INDEX = "anysink-mirror";
    private static final Duration SETTLE = Duration.ofSeconds(90);

    private static ScalerService service;
    private static ApiServer api;
    private static ScalerHttp scaler;
    private static Path outputs;

    @BeforeAll
    static void startScaler(LocalStack stack) throws Exception {
        outputs = Files.createDirectories(Path.of("target", "any-sink").toAbsolutePath());
        service = new ScalerService(ScalerSettings.fromValues(Map.of(
                "connect.url",
                stack.endpoints().connectUrl().toString(),
                // a scaler of its own: replicas with one id share policies and a leader, the shared stack's included
                "scaler.cluster.id",
                "any-sink-test",
                "kafka.bootstrap.servers",
                stack.endpoints().kafkaBootstrap(),
                "elasticsearch.url",
                stack.endpoints().elasticsearchUrl().toString(),
                "window.seconds",
                "6",
                "sample.interval.seconds",
                "1",
                Setting.INDEX.key() + REGEX_SINK,
                NAMED_INDEX,
                "state.dir",
                Files.createTempDirectory("kcscale-any-sink-state").toString())));
        service.start();
        api = ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service));
        scaler = new ScalerHttp(URI.create(url()));
    }

    @AfterAll
    static void stopScaler() throws Exception {
        if (api != null) {
            api.close();
        }
        if (service != null) {
            service.close();
        }
    }

    private static String url() {
        return "http://127.0.0.1:" + api.address().getPort();
    }

    @Test
    void aFileSinkIsObservedCheckedScaledAndAutoscaledWithoutAnIndex(LocalStack stack) throws Exception {
        String sink = "anysink-file-sink";
        String path = "/api/v1/connectors/" + sink;
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic("anysink-files", 4);
            scratch.source("anysink-file-source", "anysink-files", "price", 100, Map.of());
            scratch.connector(sink, fileSink(Map.of("topics", "anysink-files"), outputs.resolve("file-sink.txt"), 1));
            scratch.awaitRunning(sink, 1);

            // status: lag, rates per task and Little's latency come from Kafka alone; no index, and nothing unreachable
            JsonNode s = awaitSnapshot(
                    path,
                    n -> n.path("rates").path("sinkPerSecond").asDouble() > 0
                            && n.path("stable").asBoolean()
                            && n.path("tasks").path(0).path("recordsPerSecond").asDouble() > 0);
            assertEquals(List.of("anysink-files"), texts(s.path("topics")));
            assertFalse(s.path("degraded").asBoolean(), s.toString());
            assertEquals(0, s.path("unreachable").size(), s.toString());
            assertTrue(
                    s.path("elasticsearch").path("index").isNull()
                            || s.path("elasticsearch").path("index").isMissingNode(),
                    s.toString());
            assertEquals(4, s.path("tasks").path(0).path("partitions").size(), s.toString());
            assertTrue(s.path("lag").path("total").isNumber(), s.toString());
            assertTrue(s.path("latencySeconds").isNumber(), s.toString());
            ScalingChecksTest.Run status = ScalingChecksTest.run("status", sink, "--scaler-url", url());
            assertEquals(0, status.exit(), status.err());
            assertTrue(status.out().contains("index not applicable"), status.out());
            assertTrue(
                    status.out().contains("index: none (the sink's config names no Elasticsearch index"), status.out());

            // the checks: every one judges but index-shards, which says why it does not apply
            JsonNode report =
                    awaitFindings(path, Map.of("stability", severity("ok"), "key-cardinality", severity("ok")));
            JsonNode shards = ScalingChecksTest.finding(report, "index-shards");
            assertEquals("not-applicable", shards.path("severity").asText(), shards.toString());
            assertTrue(
                    shards.path("title").asText().startsWith("not applicable: ")
                            && shards.path("title").asText().contains(FILE_SINK_CLASS),
                    shards.toString());
            assertTrue(shards.path("advice").asText().contains("--index " + sink + "=INDEX"), shards.toString());
            for (String id : List.of(
                    "key-cardinality",
                    "partition-skew",
                    "idle-tasks",
                    "partition-count",
                    "duplicate-sink",
                    "rebalance-config",
                    "stability")) {
                JsonNode f = ScalingChecksTest.finding(report, id);
                assertFalse(
                        List.of("not-applicable", "info")
                                .contains(f.path("severity").asText()),
                        f.toString());
            }
            assertEquals(
                    "price",
                    ScalingChecksTest.finding(report, "key-cardinality")
                            .path("evidence")
                            .path("keyField")
                            .asText());
            assertEquals(
                    "range",
                    ScalingChecksTest.finding(report, "rebalance-config")
                            .path("evidence")
                            .path("assignor")
                            .asText());

            // a second file sink into the same file is a duplicate; into another file it is not
            scratch.stoppedConnector(
                    "anysink-file-copy",
                    fileSink(Map.of("topics", "anysink-files"), outputs.resolve("file-sink.txt"), 1));
            JsonNode duplicate = ScalingChecksTest.finding(
                    awaitFindings(path, Map.of("duplicate-sink", severity("warning"))), "duplicate-sink");
            assertEquals(
                    List.of("anysink-file-copy"),
                    texts(duplicate.path("evidence").path("duplicateSinks")),
                    duplicate.toString());
            assertTrue(duplicate.path("title").asText().contains("into the same destination"), duplicate.toString());

            // scale: 1 -> 2 through the same action, which says the pause cannot be read off an index
            ScalerHttp.Answer scaled = scaler.post(path + "/scale", "{\"tasks\":2}");
            assertEquals(200, scaled.status(), scaled.raw());
            assertEquals(2, scaled.body().path("tasksRunning").asInt(), scaled.raw());
            assertTrue(
                    scaled.raw()
                            .contains("the pause is measured on the Elasticsearch index, and this sink writes to none"),
                    scaled.raw());
            awaitSnapshot(
                    path,
                    n -> n.path("tasks").size() == 2
                            && n.path("stable").asBoolean()
                            && n.path("tasks").path(1).path("partitions").size() == 2);

            // autoscale: a policy whose minimum is 3 applies 3 tasks
            String autoscale = path + "/autoscale";
            assertEquals(
                    200,
                    scaler.put(autoscale, "{\"minTasks\":3,\"maxTasks\":3,\"targetLag\":1000000}")
                            .status());
            JsonNode applied = Poll.until("an applied autoscale decision", SETTLE, Duration.ofSeconds(1), () -> {
                for (JsonNode r : scaler.get(autoscale).body().path("decisions")) {
                    if (r.path("outcome").asText().startsWith("applied")) {
                        return Optional.of(r);
                    }
                }
                return Optional.empty();
            });
            assertTrue(applied.path("outcome").asText().startsWith("applied: 3 tasks RUNNING"), applied.toString());
            assertEquals(200, scaler.delete(autoscale).status());

            // predict tasks --measure reads the live rates: a capacity when the tasks lag behind (a loaded machine),
            // else it says the pipeline is not saturated, with its figures
            awaitSnapshot(
                    path,
                    n -> n.path("tasks").size() == 3
                            && n.path("stable").asBoolean()
                            && n.path("rates").path("sinkPerSecond").asDouble() > 0);
            ScalingChecksTest.Run predict = ScalingChecksTest.run(
                    "predict", "tasks", "--target-rate", "1000", "--measure", sink, "--scaler-url", url());
            boolean measured = predict.exit() == 0
                    && predict.err().contains(" records/s measured on " + sink + " (saturated: lag ")
                    && predict.out().contains("Tasks for 1,000 records/s");
            boolean notSaturated = predict.exit() == 2 && predict.err().contains(sink + " is not saturated (lag ");
            assertTrue(measured || notSaturated, predict.exit() + "\n" + predict.out() + predict.err());
            assertTrue(Files.size(outputs.resolve("file-sink.txt")) > 0, "the file sink wrote its records");
        }
    }

    @Test
    void aTopicsRegexSinkIsObservedOnTheTopicsItMatchesAndItsNamedIndexIsJudged(LocalStack stack) throws Exception {
        String path = "/api/v1/connectors/" + REGEX_SINK;
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic("anysink-regex-1", 3);
            scratch.index(NAMED_INDEX, 2);
            scratch.source("anysink-regex-source", "anysink-regex-1", "price", 100, Map.of());
            scratch.connector(
                    REGEX_SINK,
                    fileSink(Map.of("topics.regex", "anysink-regex-.*"), outputs.resolve("regex-sink.txt"), 2));
            scratch.awaitRunning(REGEX_SINK, 2);

            JsonNode s = awaitSnapshot(
                    path,
                    n -> n.path("rates").path("sinkPerSecond").asDouble() > 0
                            && n.path("stable").asBoolean()
                            && n.path("tasks").size() == 2
                            && n.path("tasks").path(1).path("recordsPerSecond").asDouble() > 0);
            assertEquals(List.of("anysink-regex-1"), texts(s.path("topics")), s.toString());
            assertEquals(3, s.path("partitions").asInt(), s.toString());
            assertEquals(0, s.path("unreachable").size(), s.toString());
            assertEquals(NAMED_INDEX, s.path("elasticsearch").path("index").asText(), s.toString());
            assertEquals(2, s.path("elasticsearch").path("primaryShards").asInt(), s.toString());

            JsonNode report =
                    awaitFindings(path, Map.of("stability", severity("ok"), "key-cardinality", severity("ok")));
            assertEquals(
                    3,
                    ScalingChecksTest.finding(report, "key-cardinality")
                            .path("evidence")
                            .path("partitionsSampled")
                            .asInt(),
                    report.toString());
            JsonNode shards = ScalingChecksTest.finding(report, "index-shards");
            assertEquals("ok", shards.path("severity").asText(), shards.toString());
            assertEquals(NAMED_INDEX, shards.path("evidence").path("index").asText());
            assertEquals(2, shards.path("evidence").path("primaryShards").asInt());

            // the partitions the regex's topic has bound a scale: 4 tasks on 3 partitions is refused
            ScalerHttp.Answer refused = scaler.post(path + "/scale", "{\"tasks\":4}");
            assertEquals(422, refused.status(), refused.raw());
            assertTrue(refused.raw().contains("3 partitions"), refused.raw());
        }
    }

    /**
     * A pattern that matches no topic: Connect runs the sink with nothing to read; the scaler says so in one line of
     * the snapshot's reasons, its checks answer, and the other connectors are served as before.
     */
    @Test
    void aTopicsRegexMatchingNoTopicIsOneLineAndTheOtherSinksAreServed(LocalStack stack) throws Exception {
        String sink = "anysink-nothing-sink";
        String path = "/api/v1/connectors/" + sink;
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.connector(
                    sink,
                    fileSink(Map.of("topics.regex", "anysink-nothing-.*"), outputs.resolve("nothing-sink.txt"), 1));
            scratch.awaitRunning(sink, 1);
            String line = "the sink reads no topic: its topics.regex matches none of the cluster's topics";
            JsonNode s = awaitSnapshot(path, n -> n.path("reasons").toString().contains(line));
            assertEquals(0, s.path("topics").size(), s.toString());
            assertEquals(
                    1,
                    StreamSupport.stream(s.path("reasons").spliterator(), false)
                            .filter(r -> r.asText().contains("topics.regex"))
                            .count(),
                    "one line: " + s.path("reasons"));
            ScalerHttp.Answer checks = scaler.get(path + "/checks?sampleRecords=10&sampleSeconds=1");
            assertEquals(200, checks.status(), checks.raw());
            assertEquals(
                    200,
                    scaler.get("/api/v1/connectors/" + StackOptions.SINK_CONNECTOR)
                            .status(),
                    "the stack's own sink is still served");
        }
    }

    private static Map<String, String> fileSink(Map<String, String> subscription, Path file, int tasks) {
        Map<String, String> config = new LinkedHashMap<>(Map.of(
                "connector.class",
                FILE_SINK_CLASS,
                "tasks.max",
                String.valueOf(tasks),
                "file",
                file.toString(),
                "key.converter",
                "org.apache.kafka.connect.storage.StringConverter",
                "value.converter",
                "org.apache.kafka.connect.storage.StringConverter"));
        config.putAll(subscription);
        return config;
    }

    private static JsonNode awaitSnapshot(String path, Predicate<JsonNode> wanted) {
        return scaler.awaitGet(path, wanted, SETTLE);
    }

    private static JsonNode awaitFindings(String path, Map<String, Predicate<JsonNode>> wanted) {
        return Poll.until("findings " + wanted.keySet() + " of " + path, SETTLE, Duration.ofSeconds(1), () -> {
            ScalerHttp.Answer a = scaler.get(path + "/checks?sampleRecords=2000&sampleSeconds=2");
            if (a.status() != 200) {
                throw new IllegalStateException(a.status() + " " + a.raw());
            }
            for (Map.Entry<String, Predicate<JsonNode>> w : wanted.entrySet()) {
                JsonNode f = ScalingChecksTest.finding(a.body(), w.getKey());
                if (!w.getValue().test(f)) {
                    throw new IllegalStateException(f.toString());
                }
            }
            return Optional.of(a.body());
        });
    }

    private static Predicate<JsonNode> severity(String wanted) {
        return f -> wanted.equals(f.path("severity").asText());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
