package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.checks.TaskPlacement;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.model.TopicPartition;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A sink of several topics held against Kafka's own tool: a {@code topics.regex} file sink over topics of 3, 8
 * and 12 partitions, paused with a different lag on every partition (records produced after the pause), read
 * by the scaler and by {@code kafka-consumer-groups --describe} (Kafka's {@code ConsumerGroupCommand}, run on
 * the broker's classpath). Lag per topic-partition and each task's partitions must be the tool's; Kafka's range
 * assignment must be what {@link TaskPlacement} computes; and under range at most 12 tasks can get a partition,
 * so a scale to 13 is refused though 23 partitions exist. The same sink under cooperative-sticky (a
 * {@code consumer.override}, which the worker's default override policy allows) spreads all 23.
 */
@Order(4)
@ExtendWith(SharedStack.class)
class ManyTopicsTest {

    /** The three topics' name suffixes and partitions. */
    private static final Map<String, Integer> SIZES = Map.of("a", 3, "b", 8, "c", 12);

    private static final Duration SETTLE = Duration.ofSeconds(90);

    private static InProcessScaler ownScaler;
    private static ScalerHttp scaler;

    @BeforeAll
    static void startScaler(LocalStack stack) throws Exception {
        ownScaler = InProcessScaler.start(stack, Map.of("window.seconds", "6", "sample.interval.seconds", "1"));
        scaler = ownScaler.http;
    }

    @AfterAll
    static void stopScaler() throws Exception {
        if (ownScaler != null) {
            ownScaler.close();
        }
    }

    @Test
    void underRangeTheScalersReadingsAreKafkasAndTwelveTasksAtMostGetAPartition(LocalStack stack) throws Exception {
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            Frozen frozen = frozenAgainstTheTool(stack, scratch, "manytopics-", Map.of());
            assertEquals(
                    "range",
                    frozen.snapshot().path("assignor").asText(),
                    frozen.snapshot().toString());
            assertEquals(
                    TaskPlacement.place("range", frozen.topics(), 3).orElseThrow(),
                    frozen.owners(),
                    "Kafka's range assignment, per topic");

            // under range each topic is assigned on its own: at most 12 tasks (the largest topic's) get a partition
            assertScaleBound(frozen.sink(), 12);
            String path = "/api/v1/connectors/" + frozen.sink();
            JsonNode idle = ScalingChecksTest.finding(
                    scaler.get(path + "/checks?sampleRecords=100&sampleSeconds=1")
                            .body(),
                    "idle-tasks");
            assertEquals(
                    12, idle.path("evidence").path("tasksWithPartitionsAtMost").asInt(), idle.toString());
            assertEquals("range", idle.path("evidence").path("assignor").asText(), idle.toString());

            // the autoscaler decides on the whole lag of the three topics, and bounds the tasks as the range assignor
            // does
            long since = System.currentTimeMillis();
            ScalerHttp.Answer put = scaler.put(
                    path + "/autoscale", "{\"minTasks\":1,\"maxTasks\":12,\"targetLag\":10,\"dryRun\":true}");
            assertEquals(200, put.status(), put.raw());
            JsonNode decision =
                    Poll.until("an autoscale decision on the three-topic sink", SETTLE, Duration.ofMillis(500), () -> {
                        for (JsonNode r : scaler.get(path + "/autoscale").body().path("decisions")) {
                            if (r.path("decision").path("atMillis").asLong() >= since) {
                                return Optional.of(r.path("decision"));
                            }
                        }
                        return Optional.empty();
                    });
            long wholeLag = frozen.snapshot().path("lag").path("total").asLong();
            assertEquals(wholeLag, decision.path("inputs").path("lag").asLong(), decision.toString());
            assertEquals(
                    12,
                    decision.path("inputs").path("tasksWithPartitionsAtMost").asInt(),
                    decision.toString());
            assertEquals(200, scaler.delete(path + "/autoscale").status());
        }
    }

    @Test
    void underCooperativeStickyTheScalersReadingsAreKafkasAndAllPartitionsBoundTheTasks(LocalStack stack)
            throws Exception {
        try (ScratchPipeline scratch = new ScratchPipeline(stack)) {
            Frozen frozen = frozenAgainstTheTool(
                    stack,
                    scratch,
                    "stickytopics-",
                    Map.of(
                            "consumer.override.partition.assignment.strategy",
                            "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"));
            assertEquals(
                    "cooperative-sticky",
                    frozen.snapshot().path("assignor").asText(),
                    frozen.snapshot().toString());

            // all 23 partitions are spread over the tasks: 23 can work, 24 cannot
            assertScaleBound(frozen.sink(), 23);
        }
    }

    /** A dry-run scale to {@code bound} tasks goes ahead; to one more it is refused, naming the bound (force overrides checks only). */
    private static void assertScaleBound(String sink, int bound) {
        String scale = "/api/v1/connectors/" + sink + "/scale";
        ScalerHttp.Answer refused =
                scaler.post(scale, "{\"tasks\":" + (bound + 1) + ",\"dryRun\":true,\"force\":true}");
        assertEquals(422, refused.status(), refused.raw());
        assertTrue(
                refused.raw()
                        .contains(
                                "tasks " + (bound + 1) + " is above the " + bound + " tasks that can get a partition"),
                refused.raw());
        ScalerHttp.Answer allowed = scaler.post(scale, "{\"tasks\":" + bound + ",\"dryRun\":true,\"force\":true}");
        assertEquals(200, allowed.status(), allowed.raw());
    }

    /** The paused sink as the scaler reads it, each task's partitions, the topics and the sink's name. */
    private record Frozen(
            JsonNode snapshot, Map<TopicPartition, Integer> owners, Map<String, Integer> topics, String sink) {}

    /**
     * Topics {@code PREFIX}a, b and c of 3, 8 and 12 partitions, a {@code topics.regex} file sink of 3 tasks over them
     * (with {@code extra} config), every partition committed, then the sink paused and each partition given its own
     * lag: the scaler's lag per topic-partition and each task's partitions must be what Kafka's tool prints.
     */
    private static Frozen frozenAgainstTheTool(
            LocalStack stack, ScratchPipeline scratch, String prefix, Map<String, String> extra) throws Exception {
        String sink = prefix + "sink";
        String group = SinkTarget.consumerGroup(sink);
        Map<String, Integer> topics = new TreeMap<>();
        SIZES.forEach((suffix, count) -> topics.put(prefix + suffix, count));
        Path output = Files.createDirectories(Path.of("target", "many-topics").toAbsolutePath())
                .resolve(sink + ".txt");
        try (KafkaProducer<String, String> producer = producer(stack)) {
            for (Map.Entry<String, Integer> t : topics.entrySet()) {
                scratch.topic(t.getKey(), t.getValue());
            }
            // two records on every partition, consumed and committed, so that the tool prints a lag for each
            produce(producer, topics, (topic, p) -> 2);
            Map<String, String> config = new LinkedHashMap<>(Map.of(
                    "connector.class",
                    "org.apache.kafka.connect.file.FileStreamSinkConnector",
                    "tasks.max",
                    "3",
                    "topics.regex",
                    prefix + ".*",
                    "file",
                    output.toString(),
                    "key.converter",
                    "org.apache.kafka.connect.storage.StringConverter",
                    "value.converter",
                    "org.apache.kafka.connect.storage.StringConverter"));
            config.putAll(extra);
            scratch.connector(sink, config);
            scratch.awaitRunning(sink, 3);
            Poll.until("every partition committed", SETTLE, Duration.ofMillis(500), () -> {
                for (String topic : topics.keySet()) {
                    if (!scratch.probe
                            .kafka
                            .committedOffsets(group, topic)
                            .equals(scratch.probe.kafka.endOffsets(topic))) {
                        return Optional.empty();
                    }
                }
                return Optional.of(true);
            });

            // the tasks join the group one by one, the first taking every partition: freeze only once all three hold
            // theirs
            Poll.until("the sink group stable with its 3 tasks", SETTLE, Duration.ofMillis(500), () -> {
                Set<String> members = new TreeSet<>();
                boolean stable = true;
                for (String topic : topics.keySet()) {
                    KafkaReadingsClient.GroupView view = scratch.probe.kafka.describeGroup(group, topic);
                    stable &= "STABLE".equalsIgnoreCase(view.state());
                    members.addAll(view.clientIdByPartition().values());
                }
                return stable && members.size() == 3 ? Optional.of(true) : Optional.empty();
            });

            // frozen: the paused tasks keep their partitions and commit nothing more; each partition then gets its own
            // lag
            scratch.probe.connect.pauseConnector(sink);
            Poll.until(
                    "the sink PAUSED",
                    SETTLE,
                    Duration.ofMillis(500),
                    () -> Optional.of(true)
                            .filter(x ->
                                    scratch.probe.connect.connectorStatus(sink).tasksInState("PAUSED") == 3));
            produce(
                    producer,
                    topics,
                    (topic, p) -> 1 + p + 20 * List.copyOf(topics.keySet()).indexOf(topic));
        }

        Map<TopicPartition, Row> described = describe(stack, group);
        assertEquals(23, described.size(), described.toString());
        long total = described.values().stream().mapToLong(Row::lag).sum();
        JsonNode s = scaler.awaitGet(
                "/api/v1/connectors/" + sink,
                n -> n.path("lag").path("total").asLong() == total
                        && n.path("tasks").size() == 3,
                SETTLE);
        assertEquals(described, describe(stack, group), "Kafka's reading did not move while the scaler caught up");

        assertEquals(List.copyOf(topics.keySet()), texts(s.path("topics")), s.toString());
        assertEquals(23, s.path("partitions").asInt(), s.toString());
        topics.forEach((topic, count) ->
                assertEquals(count, s.path("partitionsPerTopic").path(topic).asInt(), s.toString()));
        assertTrue(
                s.path("lag").path("perPartition").isMissingNode(),
                "partition numbers alone would mix the topics: " + s);
        Map<TopicPartition, Integer> owners = new TreeMap<>();
        for (JsonNode task : s.path("tasks")) {
            assertTrue(task.path("partitions").isMissingNode(), task.toString());
            task.path("partitionsByTopic")
                    .fields()
                    .forEachRemaining(t -> t.getValue()
                            .forEach(p -> owners.put(
                                    new TopicPartition(t.getKey(), p.asInt()),
                                    task.path("id").asInt())));
        }
        described.forEach((tp, row) -> {
            assertEquals(
                    row.lag(),
                    s.path("lag")
                            .path("perTopic")
                            .path(tp.topic())
                            .path(String.valueOf(tp.partition()))
                            .asLong(),
                    "lag of " + tp);
            assertEquals(row.task(), owners.get(tp), "task of " + tp);
        });
        return new Frozen(s, owners, topics, sink);
    }

    /** One partition as {@code kafka-consumer-groups --describe} prints it: its lag and the task of its client id. */
    private record Row(long lag, Integer task) {}

    /** Runs Kafka's {@code ConsumerGroupCommand --describe} on the sink group, as a child JVM on the broker's classpath. */
    private static Map<TopicPartition, Row> describe(LocalStack stack, String group)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process tool = new ProcessBuilder(
                        java,
                        "-cp",
                        new InstallLayout(RepositoryFiles.home()).kafkaClasspath(),
                        "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                        "--bootstrap-server",
                        stack.endpoints().kafkaBootstrap(),
                        "--describe",
                        "--group",
                        group)
                .redirectErrorStream(true)
                .start();
        byte[] out = tool.getInputStream().readAllBytes();
        assertTrue(tool.waitFor(60, TimeUnit.SECONDS), "kafka-consumer-groups did not end");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, tool.exitValue(), text);
        Map<TopicPartition, Row> rows = new TreeMap<>();
        for (String line : text.split("\n")) {
            // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
            String[] c = line.trim().split("\\s+");
            if (c.length == 9 && c[0].equals(group)) {
                rows.put(
                        new TopicPartition(c[1], Integer.parseInt(c[2])),
                        new Row(
                                Long.parseLong(c[5]),
                                SinkTarget.taskOfClientId(c[8]).orElse(null)));
            }
        }
        return rows;
    }

    @FunctionalInterface
    private interface Count {
        int of(String topic, int partition);
    }

    /** Every record acknowledged, or the test fails with the producer's error for the first that was not. */
    private static void produce(KafkaProducer<String, String> producer, Map<String, Integer> topics, Count count)
            throws Exception {
        List<Future<RecordMetadata>> sent = new java.util.ArrayList<>();
        for (Map.Entry<String, Integer> t : topics.entrySet()) {
            for (int p = 0; p < t.getValue(); p++) {
                for (int i = 0; i < count.of(t.getKey(), p); i++) {
                    sent.add(producer.send(new ProducerRecord<>(t.getKey(), p, "k" + i, "v" + i)));
                }
            }
        }
        producer.flush();
        for (Future<RecordMetadata> f : sent) {
            f.get(30, TimeUnit.SECONDS);
        }
    }

    private static KafkaProducer<String, String> producer(LocalStack stack) {
        Map<String, Object> config = new LinkedHashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.endpoints().kafkaBootstrap(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                // one batch in flight, so that none overtakes another refused while a new topic's leader is elected:
                // in one run a partition's batches were refused as out of order until delivery.timeout.ms, 2 minutes
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                1));
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new java.util.ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
