package io.kcscale.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import io.kcscale.local.InstallLayout;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.checks.TaskPlacement;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.model.TopicPartition;
import io.kcscale.scaler.poll.Poll;

/**
 * A sink of several topics held against Kafka's own tool: a {@code topics.regex} file sink over topics of 3, 8
 * and 12 partitions, paused with a different lag on every partition (records produced after the pause), read
 * by the scaler and by {@code kafka-consumer-groups --describe} (Kafka's {@code ConsumerGroupCommand}, run on
 * the broker's classpath). Lag per topic-partition and each task's partitions must be the tool's; Kafka's range
 * assignment must be what {@link TaskPlacement} computes; and under range at most 12 tasks can get a partition,
 * so a scale to 13 is refused though 23 partitions exist.
 */
@Order(4)
@ExtendWith(SharedStack.class)
class ManyTopicsTest {

    private static final String SINK = "manytopics-sink";
    private static final Map<String, Integer> TOPICS = new TreeMap<>(Map.of("manytopics-a", 3, "manytopics-b", 8, "manytopics-c", 12));
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
    void aRegexSinkOverThreeTopicsReadsAsKafkasConsumerGroupToolSaysAndIsBoundUnderRange(LocalStack stack) throws Exception {
        String path = "/api/v1/connectors/" + SINK;
        Path output = Files.createDirectories(Path.of("target", "many-topics").toAbsolutePath()).resolve("sink.txt");
        try (ScratchPipeline scratch = new ScratchPipeline(stack);
             KafkaProducer<String, String> producer = producer(stack)) {
            for (Map.Entry<String, Integer> t : TOPICS.entrySet()) {
                scratch.topic(t.getKey(), t.getValue());
            }
            // two records on every partition, consumed and committed, so that the tool prints a lag for each
            produce(producer, (topic, p) -> 2);
            scratch.connector(SINK, Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSinkConnector",
                    "tasks.max", "3", "topics.regex", "manytopics-.*", "file", output.toString(),
                    "key.converter", "org.apache.kafka.connect.storage.StringConverter",
                    "value.converter", "org.apache.kafka.connect.storage.StringConverter"));
            scratch.awaitRunning(SINK, 3);
            Poll.until("every partition committed", SETTLE, Duration.ofMillis(500), () -> {
                for (String topic : TOPICS.keySet()) {
                    Map<Integer, Long> committed = scratch.probe.kafka.committedOffsets(SinkTarget.consumerGroup(SINK), topic);
                    if (!committed.equals(scratch.probe.kafka.endOffsets(topic))) {
                        return Optional.empty();
                    }
                }
                return Optional.of(true);
            });

            // frozen: the paused tasks keep their partitions and commit nothing more; each partition then gets its own lag
            scratch.probe.connect.pauseConnector(SINK);
            Poll.until("the sink PAUSED", SETTLE, Duration.ofMillis(500), () -> Optional.of(true).filter(x ->
                    scratch.probe.connect.connectorStatus(SINK).tasksInState("PAUSED") == 3));
            produce(producer, (topic, p) -> 1 + p + 20 * List.copyOf(TOPICS.keySet()).indexOf(topic));

            Map<TopicPartition, Row> described = describe(stack);
            assertEquals(23, described.size(), described.toString());
            long total = described.values().stream().mapToLong(Row::lag).sum();
            JsonNode s = scaler.awaitGet(path, n -> n.path("lag").path("total").asLong() == total
                    && n.path("tasks").size() == 3, SETTLE);
            assertEquals(described, describe(stack), "Kafka's reading did not move while the scaler caught up");

            assertEquals(List.copyOf(TOPICS.keySet()), texts(s.path("topics")), s.toString());
            assertEquals(23, s.path("partitions").asInt(), s.toString());
            TOPICS.forEach((topic, count) -> assertEquals(count, s.path("partitionsPerTopic").path(topic).asInt(), s.toString()));
            assertEquals("range", s.path("assignor").asText(), s.toString());
            assertTrue(s.path("lag").path("perPartition").isMissingNode(), "partition numbers alone would mix the topics: " + s);
            Map<TopicPartition, Integer> owners = new TreeMap<>();
            for (JsonNode task : s.path("tasks")) {
                assertTrue(task.path("partitions").isMissingNode(), task.toString());
                task.path("partitionsByTopic").fields().forEachRemaining(t -> t.getValue().forEach(p ->
                        owners.put(new TopicPartition(t.getKey(), p.asInt()), task.path("id").asInt())));
            }
            described.forEach((tp, row) -> {
                assertEquals(row.lag(), s.path("lag").path("perTopic").path(tp.topic()).path(String.valueOf(tp.partition())).asLong(),
                        "lag of " + tp);
                assertEquals(row.task(), owners.get(tp), "task of " + tp);
            });
            assertEquals(TaskPlacement.place("range", TOPICS, 3).orElseThrow(), owners, "Kafka's range assignment, per topic");

            // under range each topic is assigned on its own: at most 12 tasks (the largest topic's) get a partition
            ScalerHttp.Answer refused = scaler.post(path + "/scale", "{\"tasks\":13,\"dryRun\":true,\"force\":true}");
            assertEquals(422, refused.status(), refused.raw());
            assertTrue(refused.raw().contains("tasks 13 is above the 12 tasks that can get a partition"), refused.raw());
            ScalerHttp.Answer allowed = scaler.post(path + "/scale", "{\"tasks\":12,\"dryRun\":true,\"force\":true}");
            assertEquals(200, allowed.status(), allowed.raw());
            JsonNode idle = ScalingChecksTest.finding(scaler.get(path + "/checks?sampleRecords=100&sampleSeconds=1").body(), "idle-tasks");
            assertEquals(12, idle.path("evidence").path("tasksWithPartitionsAtMost").asInt(), idle.toString());
            assertEquals("range", idle.path("evidence").path("assignor").asText(), idle.toString());
        }
    }

    /** One partition as {@code kafka-consumer-groups --describe} prints it: its lag and the task of its client id. */
    private record Row(long lag, Integer task) {
    }

    /** Runs Kafka's {@code ConsumerGroupCommand --describe} on the sink group, as a child JVM on the broker's classpath. */
    private static Map<TopicPartition, Row> describe(LocalStack stack) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process tool = new ProcessBuilder(java, "-cp", new InstallLayout(RepositoryFiles.home()).kafkaClasspath(),
                "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand", "--bootstrap-server", stack.endpoints().kafkaBootstrap(),
                "--describe", "--group", SinkTarget.consumerGroup(SINK)).redirectErrorStream(true).start();
        byte[] out = tool.getInputStream().readAllBytes();
        assertTrue(tool.waitFor(60, TimeUnit.SECONDS), "kafka-consumer-groups did not end");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, tool.exitValue(), text);
        Map<TopicPartition, Row> rows = new TreeMap<>();
        for (String line : text.split("\n")) {
            // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
            String[] c = line.trim().split("\\s+");
            if (c.length == 9 && c[0].equals(SinkTarget.consumerGroup(SINK))) {
                rows.put(new TopicPartition(c[1], Integer.parseInt(c[2])),
                        new Row(Long.parseLong(c[5]), SinkTarget.taskOfClientId(c[8]).orElse(null)));
            }
        }
        return rows;
    }

    @FunctionalInterface
    private interface Count {
        int of(String topic, int partition);
    }

    private static void produce(KafkaProducer<String, String> producer, Count count) throws Exception {
        for (Map.Entry<String, Integer> t : TOPICS.entrySet()) {
            for (int p = 0; p < t.getValue(); p++) {
                for (int i = 0; i < count.of(t.getKey(), p); i++) {
                    producer.send(new ProducerRecord<>(t.getKey(), p, "k" + i, "v" + i));
                }
            }
        }
        producer.flush();
    }

    private static KafkaProducer<String, String> producer(LocalStack stack) {
        Map<String, Object> config = new LinkedHashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap(),
                ProducerConfig.ACKS_CONFIG, "all"));
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new java.util.ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
