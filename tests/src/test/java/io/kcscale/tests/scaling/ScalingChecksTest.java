package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.cli.KcscaleCommand;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.tests.fixtures.PlainConsumer;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scaling checks on the real stack, one scenario per trap, each asserting the finding and its
 * evidence: the shared pipeline keyed by price is fine; 3 tasks on its 1-shard index warn; a 3-shard
 * index is fine and a second sink into it is a duplicate; a source keyed by side starves a task and
 * blocks a scale-up; skewed keys show in partition skew; symbol keys on 5 tasks refuse a sixth. A
 * scaler of its own with a 6 s window lets new pipelines' findings settle in seconds. Every scratch topic, index and connector is removed.
 */
@Order(4)
@ExtendWith(SharedStack.class)
class ScalingChecksTest {

    private static final String SHARED = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;
    private static final Duration SETTLE = Duration.ofSeconds(90);

    private static ScalerService service;
    private static ApiServer api;
    private static ScalerHttp scaler;
    /** The shared source's config as this test found it; it runs without end while the checks need traffic. */
    private static Map<String, String> sourceAsFound;

    @BeforeAll
    static void startScaler(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            sourceAsFound = probe.connect.connectorConfig(StackOptions.SOURCE_CONNECTOR);
            probe.updateConnector(StackOptions.SOURCE_CONNECTOR, Map.of("iterations", "-1"));
        }
        service = new ScalerService(ScalerSettings.fromValues(Map.of(
                "connect.url",
                stack.endpoints().connectUrl().toString(),
                // a scaler of its own: replicas with one id share policies and a leader, the shared stack's included
                "scaler.cluster.id",
                "scaling-checks-test",
                "kafka.bootstrap.servers",
                stack.endpoints().kafkaBootstrap(),
                "elasticsearch.url",
                stack.endpoints().elasticsearchUrl().toString(),
                "window.seconds",
                "6",
                "sample.interval.seconds",
                "1",
                "state.dir",
                Files.createTempDirectory("kcscale-checks-state").toString())));
        service.start();
        api = ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service));
        scaler = new ScalerHttp(java.net.URI.create(url()));
    }

    @AfterAll
    static void stopScaler(LocalStack stack) throws Exception {
        api.close();
        service.close();
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(StackOptions.SOURCE_CONNECTOR, sourceAsFound);
        }
    }

    static String url() {
        return "http://127.0.0.1:" + api.address().getPort();
    }

    @Test
    @Order(1)
    void theSharedPipelineKeyedByPriceIsOkAndEveryCheckReports(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            awaitFindings(SHARED, Map.of("key-cardinality", ok(), "partition-skew", ok(), "stability", ok()));
            long recordsBefore = probe.recordsInTopic(StackOptions.TOPIC);
            int keysBefore = distinctKeys(stack, StackOptions.TOPIC);
            // a record budget beyond the topic: the sample reads all of it, so its figures can be counted independently
            JsonNode report = scaler.get(SHARED + "/checks?sampleRecords=10000000&sampleSeconds=30")
                    .body();
            long recordsAfter = probe.recordsInTopic(StackOptions.TOPIC);
            int keysAfter = distinctKeys(stack, StackOptions.TOPIC);
            int tasks = Integer.parseInt(
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"));

            assertEquals(
                    List.of(
                            "key-cardinality",
                            "partition-skew",
                            "idle-tasks",
                            "partition-count",
                            "index-shards",
                            "duplicate-sink",
                            "rebalance-config",
                            "worker-capacity",
                            "dead-letters",
                            "stability"),
                    ids(report));
            assertEquals(tasks, report.path("tasks").asInt());
            JsonNode keys = finding(report, "key-cardinality");
            assertEquals("ok", keys.path("severity").asText(), keys.toString());
            JsonNode e = keys.path("evidence");
            assertEquals("price", e.path("keyField").asText());
            assertEquals(
                    StackOptions.SOURCE_CONNECTOR, e.path("sourceConnector").asText());
            assertEquals(20, e.path("partitions").asInt());
            assertBetween(keysBefore, keysAfter, e.path("distinctKeys").asLong(), "distinct keys");
            assertTrue(e.path("distinctKeys").asLong() >= 400, "price has up to 997 values: " + e);
            assertEquals(e.path("distinctKeys").asLong() / 20.0, e.path("ratio").asDouble(), 0.01);
            assertBetween(recordsBefore, recordsAfter, e.path("sampledRecords").asLong(), "sampled records");
            assertEquals(20, e.path("partitionsSampled").asInt());

            JsonNode skew = finding(report, "partition-skew").path("evidence");
            assertEquals(0, skew.path("emptyPartitions").asInt(), skew.toString());
            assertTrue(skew.path("maxMeanRatio").asDouble() < 2, skew.toString());
            assertEquals("ok", finding(report, "idle-tasks").path("severity").asText());
            assertEquals(
                    tasks,
                    finding(report, "idle-tasks").path("evidence").path("tasks").asInt());
            JsonNode count = finding(report, "partition-count");
            assertEquals("ok", count.path("severity").asText());
            assertEquals(1, count.path("evidence").path("brokers").asInt());
            JsonNode shards = finding(report, "index-shards").path("evidence");
            assertEquals(1, shards.path("primaryShards").asInt());
            assertEquals(1, shards.path("dataNodes").asInt());
            JsonNode duplicates = finding(report, "duplicate-sink");
            assertEquals("ok", duplicates.path("severity").asText(), duplicates.toString());
            assertEquals(0, duplicates.path("evidence").path("duplicates").asInt());
            // Kafka's defaults, which the stack keeps: the eager range assignor and a 45 s session
            JsonNode rebalance = finding(report, "rebalance-config");
            assertEquals("warning", rebalance.path("severity").asText());
            assertEquals("range", rebalance.path("evidence").path("assignor").asText());
            assertEquals(
                    45_000, rebalance.path("evidence").path("sessionTimeoutMs").asInt());
            assertEquals("ok", finding(report, "stability").path("severity").asText());

            Run cli = run("check", StackOptions.SINK_CONNECTOR, "--scaler-url", url());
            System.out.println(
                    "[measure] ./kcscale check " + StackOptions.SINK_CONNECTOR + " on the shared stack:\n" + cli.out);
            assertEquals(1, cli.exit, "the rebalance-config warning makes the exit status 1: " + cli.err);
            assertTrue(cli.out.contains("WARNING   rebalance-config  eager assignment (range)"), cli.out);
            assertTrue(cli.out.contains("OK        key-cardinality   "), cli.out);
        }
    }

    @Test
    @Order(2)
    void threeTasksOnTheOneShardIndexWarnBeforeTheScaleAndAfter(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            int before = Integer.parseInt(
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"));
            int tasks = Math.max(3, before + 1);
            try {
                ScalerHttp.Answer scaled = scaler.post(SHARED + "/scale", "{\"tasks\":" + tasks + "}");
                assertEquals(200, scaled.status(), scaled.raw());
                assertTrue(
                        warnings(scaled.body()).stream()
                                .anyMatch(w -> w.startsWith(
                                        "index-shards (warning): 1 primary shard for " + tasks + " tasks")),
                        scaled.raw());
                // the watcher sees the new tasks.max at its next sample
                JsonNode shards =
                        finding(awaitFindings(SHARED, Map.of("index-shards", severity("warning"))), "index-shards");
                JsonNode e = shards.path("evidence");
                assertEquals(StackOptions.INDEX, e.path("index").asText());
                assertEquals(1, e.path("primaryShards").asInt());
                assertEquals(1, e.path("dataNodes").asInt());
                assertEquals(tasks, e.path("tasks").asInt());
                assertEquals(3, e.path("suggestedShards").asInt());
                assertEquals(4, e.path("splitShards").asInt());
                assertTrue(
                        shards.path("advice")
                                .asText()
                                .contains(
                                        "PUT _index_template/stocks-shards\n{\"index_patterns\": [\"stocks-*\"], "
                                                + "\"template\": {\"settings\": {\"number_of_shards\": 3, \"number_of_replicas\": 0}}}"),
                        shards.toString());
            } finally {
                ScalerHttp.Answer back = scaler.post(SHARED + "/scale", "{\"tasks\":" + before + "}");
                assertEquals(200, back.status(), back.raw());
            }
        }
    }

    @Test
    @Order(3)
    void aThreeShardIndexIsOkAndASecondSinkIntoItIsADuplicate(LocalStack stack) throws Exception {
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic("checks-shards", 3);
            scratch.index("checks-shards", 3);
            scratch.sink("checks-shards-sink", "checks-shards", "checks-shards", 3);
            scratch.awaitRunning("checks-shards-sink", 3);
            String path = "/api/v1/connectors/checks-shards-sink";
            JsonNode report = awaitFindings(path, Map.of("index-shards", ok(), "duplicate-sink", ok()));
            JsonNode shards = finding(report, "index-shards").path("evidence");
            assertEquals(3, shards.path("primaryShards").asInt());
            assertEquals(3, shards.path("tasks").asInt());
            assertEquals(1, shards.path("dataNodes").asInt());

            scratch.sink("checks-shards-copy", "checks-shards", "checks-shards", 1);
            JsonNode duplicate =
                    finding(awaitFindings(path, Map.of("duplicate-sink", severity("warning"))), "duplicate-sink");
            JsonNode e = duplicate.path("evidence");
            assertEquals(1, e.path("duplicates").asInt());
            assertEquals("checks-shards-copy", e.path("duplicateSinks").get(0).asText());
            assertEquals("checks-shards", e.path("index").asText());
            assertTrue(
                    duplicate.path("advice").asText().contains("DELETE /connectors/checks-shards-copy"),
                    duplicate.toString());
            JsonNode other = finding(
                    awaitFindings(
                            "/api/v1/connectors/checks-shards-copy", Map.of("duplicate-sink", severity("warning"))),
                    "duplicate-sink");
            assertEquals(
                    "checks-shards-sink",
                    other.path("evidence").path("duplicateSinks").get(0).asText());
        }
    }

    @Test
    @Order(4)
    void sideKeysAreCriticalStarveATaskAndBlockAScaleUp(LocalStack stack) throws Exception {
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            String path = keyedPipeline(scratch, "checks-side", "side", 3);
            // a starved task shows once the window holds records on the two hot partitions only
            JsonNode report = awaitFindings(
                    path,
                    Map.of(
                            "key-cardinality",
                            severity("critical"),
                            "idle-tasks",
                            f -> f.path("evidence").path("starvedTasks").size() > 0));

            JsonNode keys = finding(report, "key-cardinality");
            JsonNode e = keys.path("evidence");
            assertEquals(2, e.path("distinctKeys").asInt(), "BUY and SELL");
            assertTrue(e.path("distinctKeysExact").asBoolean());
            assertEquals(20, e.path("partitions").asInt());
            assertEquals(3, e.path("tasks").asInt());
            assertEquals(0.1, e.path("ratio").asDouble());
            assertEquals("side", e.path("keyField").asText());
            assertEquals("checks-side-datagen", e.path("sourceConnector").asText());
            assertTrue(e.path("sampledRecords").asLong() > 0);
            assertEquals(2, e.path("fieldDistinctValues").path("side").asInt());
            Matcher better = Pattern.compile("^Key by (\\w+): it had (\\d+) distinct values")
                    .matcher(keys.path("advice").asText());
            assertTrue(better.find(), keys.toString());
            assertTrue(!better.group(1).equals("side") && Integer.parseInt(better.group(2)) > 2, keys.toString());
            assertTrue(
                    keys.path("advice").asText().contains("set \"schema.keyfield\": \"" + better.group(1) + "\""),
                    keys.toString());

            // BUY and SELL each hash to one partition; a task owning neither gets nothing
            Set<Integer> hot = Set.of(partition("BUY", 20), partition("SELL", 20));
            List<Integer> starved = new ArrayList<>();
            for (JsonNode t : scaler.get(path).body().path("tasks")) {
                Set<Integer> owned = new HashSet<>();
                t.path("partitions").forEach(p -> owned.add(p.asInt()));
                if (owned.stream().noneMatch(hot::contains)) {
                    starved.add(t.path("id").asInt());
                }
            }
            JsonNode idle = finding(report, "idle-tasks").path("evidence");
            assertTrue(!starved.isEmpty(), "3 tasks, 2 hot partitions");
            assertEquals(
                    starved.toString(), idle.path("starvedTasks").toString().replace(",", ", "), idle.toString());
            assertEquals(starved.toString(), idle.path("idleTasks").toString().replace(",", ", "), idle.toString());
            assertEquals(
                    "warning", finding(report, "idle-tasks").path("severity").asText());

            String config =
                    scratch.probe.connect.connectorConfig("checks-side-sink").toString();
            ScalerHttp.Answer refused = scaler.post(path + "/scale", "{\"tasks\":4}");
            assertEquals(422, refused.status(), refused.raw());
            assertTrue(
                    refused.body()
                            .path("error")
                            .asText()
                            .startsWith("adding tasks would not help: key-cardinality: only 2 distinct keys"),
                    refused.raw());
            assertEquals(
                    config,
                    scratch.probe.connect.connectorConfig("checks-side-sink").toString(),
                    "a refusal changes nothing");
            ScalerHttp.Answer forced = scaler.post(path + "/scale", "{\"tasks\":4,\"force\":true,\"dryRun\":true}");
            assertEquals(200, forced.status(), forced.raw());
            assertTrue(
                    warnings(forced.body()).stream()
                            .anyMatch(w -> w.startsWith("key-cardinality (critical): only 2 distinct keys")),
                    forced.raw());

            Run cli = run("check", "checks-side-sink", "--scaler-url", url());
            System.out.println("[measure] ./kcscale check checks-side-sink (keyed by side):\n" + cli.out);
            assertEquals(1, cli.exit, cli.err);
            assertTrue(cli.out.contains("CRITICAL  key-cardinality   only 2 distinct keys"), cli.out);
            Run scale = run("scale", "checks-side-sink", "--tasks", "4", "--scaler-url", url());
            assertEquals(1, scale.exit);
            assertTrue(scale.err.contains("refused (422): adding tasks would not help"), scale.err);
        }
    }

    @Test
    @Order(5)
    void skewedKeysPinOnePartition(LocalStack stack) throws Exception {
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            scratch.topic("checks-skew", 20);
            // Zipf(50 keys, exponent 2): the hottest key, symbol-0, carries about 61% of the records
            scratch.source(
                    "checks-skew-datagen",
                    "checks-skew",
                    "symbol",
                    150,
                    Map.of("key.cardinality", "50", "key.skew", "2.0"));
            scratch.sink("checks-skew-sink", "checks-skew", "checks-skew", 2);
            scratch.awaitRunning("checks-skew-sink", 2);
            JsonNode skew = finding(
                    awaitFindings("/api/v1/connectors/checks-skew-sink", Map.of("partition-skew", severity("warning"))),
                    "partition-skew");
            JsonNode e = skew.path("evidence");
            assertEquals(20, e.path("partitions").asInt());
            assertEquals(partition("symbol-0", 20), e.path("hottestPartition").asInt(), skew.toString());
            assertTrue(e.path("hottestShare").asDouble() >= 0.5, skew.toString());
            assertTrue(e.path("maxMeanRatio").asDouble() >= 10, skew.toString());
            assertEquals(
                    e.path("hottestShare").asDouble() * 20,
                    e.path("maxMeanRatio").asDouble(),
                    0.2);
            Set<Integer> reachable = new TreeSet<>();
            for (int k = 0; k < 50; k++) {
                reachable.add(partition("symbol-" + k, 20));
            }
            Set<Integer> empty = new TreeSet<>();
            e.path("emptyPartitionIds").forEach(p -> empty.add(p.asInt()));
            for (int p = 0; p < 20; p++) {
                assertTrue(
                        reachable.contains(p) || empty.contains(p),
                        "partition " + p + " gets no key, so it must be empty: " + e);
            }
            assertEquals(empty.size(), e.path("emptyPartitions").asInt());
        }
    }

    @Test
    @Order(6)
    void symbolKeysOnFiveTasksRefuseSixThoughSevenKeysAreMore(LocalStack stack) throws Exception {
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            String path = keyedPipeline(scratch, "checks-symbol", "symbol", 5);
            // the datagen's 7 symbols (stock_trades.avsc); two share partition 13
            Set<Integer> landed = new TreeSet<>();
            for (String symbol : List.of("ACME", "GLOBX", "HOOLI", "INITK", "STARK", "UMBRL", "WAYNE")) {
                landed.add(partition(symbol, 20));
            }
            assertEquals(Set.of(1, 4, 6, 8, 13, 16), landed);
            JsonNode count = finding(
                    awaitFindings(
                            path,
                            Map.of(
                                    "partition-count",
                                    f -> f.path("evidence")
                                                    .path("partitionsWithRecords")
                                                    .asInt()
                                            == 6)),
                    "partition-count");
            // range over 5 tasks: [0-3] [4-7] [8-11] [12-15] [16-19], each holding records
            assertEquals(5, count.path("evidence").path("tasksThatCanWork").asInt(), count.toString());

            // over 6 tasks: [0-3] [4-7] [8-10] [11-13] [14-16] [17-19]: 4 and 6 share one, the last holds none
            ScalerHttp.Answer refused = scaler.post(path + "/scale", "{\"tasks\":6}");
            assertEquals(422, refused.status(), refused.raw());
            assertTrue(
                    refused.body()
                            .path("error")
                            .asText()
                            .startsWith("adding tasks would not help: idle-tasks: 5 → 6 tasks adds"
                                    + " no working task: records sit in partitions [1, 4, 6, 8, 13, 16] only, and under range assignment 5 tasks"
                                    + " have 5 receiving records, 6 would have 5"),
                    refused.raw());
            // 9 tasks are more than the 7 keys (key-cardinality refuses): forced, as a dry run, to see idle-tasks'
            // warning
            ScalerHttp.Answer nine = scaler.post(path + "/scale", "{\"tasks\":9,\"force\":true,\"dryRun\":true}");
            assertEquals(200, nine.status(), nine.raw());
            // startsWith: while the new group still rebalances, the title may go on to name tasks without partitions
            assertTrue(
                    warnings(nine.body()).stream()
                            .anyMatch(w -> w.startsWith("idle-tasks (warning): only 6 of 9 tasks would receive"
                                    + " records (partitions [1, 4, 6, 8, 13, 16] hold them; range assignment)")),
                    nine.raw());
        }
    }

    /**
     * Topic NAME of 20 partitions fed at 150 records/s by NAME-datagen keyed by {@code keyField}, and
     * NAME-sink with {@code tasks} RUNNING tasks into index NAME: the sink's API path.
     */
    static String keyedPipeline(ScratchPipeline scratch, String name, String keyField, int tasks) throws Exception {
        scratch.topic(name, 20);
        scratch.source(name + "-datagen", name, keyField, 150, Map.of());
        scratch.sink(name + "-sink", name, name, tasks);
        scratch.awaitRunning(name + "-sink", tasks);
        return "/api/v1/connectors/" + name + "-sink";
    }

    /** Kafka's default partitioner for a string key. */
    static int partition(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /** Distinct keys of every record in the topic, read by a plain consumer. */
    static int distinctKeys(LocalStack stack, String topic) {
        Set<String> keys = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = PlainConsumer.open(stack)) {
            PlainConsumer.readAll(
                    consumer,
                    topic,
                    (ConsumerRecord<byte[], byte[]> r) ->
                            keys.add(r.key() == null ? "\u0000null" : new String(r.key(), StandardCharsets.UTF_8)));
        }
        return keys.size();
    }

    private static Predicate<JsonNode> severity(String wanted) {
        return f -> wanted.equals(f.path("severity").asText());
    }

    private static Predicate<JsonNode> ok() {
        return severity("ok");
    }

    /** Polls the connector's checks until each named finding satisfies its condition; returns that report. */
    static JsonNode awaitFindings(String connectorPath, Map<String, Predicate<JsonNode>> wanted) {
        return Poll.until("findings " + wanted.keySet() + " of " + connectorPath, SETTLE, Duration.ofSeconds(1), () -> {
            ScalerHttp.Answer a = scaler.get(connectorPath + "/checks");
            if (a.status() != 200) {
                throw new IllegalStateException(a.status() + " " + a.raw());
            }
            for (Map.Entry<String, Predicate<JsonNode>> w : wanted.entrySet()) {
                JsonNode f = finding(a.body(), w.getKey());
                if (!w.getValue().test(f)) {
                    throw new IllegalStateException(f.toString());
                }
            }
            return Optional.of(a.body());
        });
    }

    static JsonNode finding(JsonNode report, String id) {
        for (JsonNode f : report.path("findings")) {
            if (id.equals(f.path("id").asText())) {
                return f;
            }
        }
        throw new AssertionError("no finding " + id + " in " + report);
    }

    private static List<String> ids(JsonNode report) {
        List<String> ids = new ArrayList<>();
        report.path("findings").forEach(f -> ids.add(f.path("id").asText()));
        return ids;
    }

    private static List<String> warnings(JsonNode scaleResult) {
        List<String> warnings = new ArrayList<>();
        scaleResult.path("warnings").forEach(w -> warnings.add(w.asText()));
        return warnings;
    }

    private static void assertBetween(long low, long high, long actual, String what) {
        assertTrue(low <= actual && actual <= high, what + " " + actual + " not within [" + low + ", " + high + "]");
    }

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = KcscaleCommand.newCommandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
