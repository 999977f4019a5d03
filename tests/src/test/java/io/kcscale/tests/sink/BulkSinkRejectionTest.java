package io.kcscale.tests.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.elasticsearch.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bulk sink facing documents Elasticsearch refuses: 50 good trades and one whose price is not a
 * number, into an index that maps price as a double. With a dead-letter topic the bad record goes
 * there (with the reason in its headers) and the 50 are indexed; without one the task fails naming
 * the document, the reason and what to configure. Then 50 good records and one that is not JSON at
 * all: by default the task fails within 30 s naming where the record is; with
 * kcscale.malformed.records=dlq it goes to a dead-letter topic and everything is committed. An index
 * under the flood-stage block (Elasticsearch answers 429 to every write) fails the task once its
 * documents have used up kcscale.retry.max.attempts, saying what to change. Into an index Elasticsearch may
 * not create, every item is refused with 404: the task fails saying what to change, with nothing
 * dead-lettered or committed. A bulk config without our transform, or with an outcome timeout shorter than a
 * batch may take, is refused by Connect's REST validation. Topics, indices and
 * connectors of its own, on the shared stack.
 */
@Order(6)
@ExtendWith(SharedStack.class)
class BulkSinkRejectionTest {

    private static final String TOPIC = "rejections";
    private static final String DEAD_LETTERS = "rejections-dlq";
    private static final int GOOD = 50;
    private static final String BAD_DOCUMENT = "{\"symbol\":\"ZVV\",\"price\":\"not-a-number\"}";
    private static final String MALFORMED_TOPIC = "malformed";
    private static final String MALFORMED_DEAD_LETTERS = "malformed-dlq";
    private static final List<String> CONNECTORS = List.of(
            "rejections-dlq-sink",
            "rejections-strict-sink",
            "malformed-strict-sink",
            "malformed-dlq-sink",
            "rejections-blocked-sink",
            "rejections-missing-sink");

    @BeforeAll
    static void produceTradesWithOneBadPrice(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            probe.kafka
                    .admin()
                    .createTopics(
                            List.of(new NewTopic(TOPIC, 1, (short) 1), new NewTopic(MALFORMED_TOPIC, 1, (short) 1)))
                    .all()
                    .get();
        }
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap());
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < GOOD; i++) {
                producer.send(
                        new ProducerRecord<>(TOPIC, "k" + i, "{\"symbol\":\"ZVV\",\"price\":" + (10 + i) + ".5}"));
                producer.send(new ProducerRecord<>(
                        MALFORMED_TOPIC, "k" + i, "{\"symbol\":\"ZVV\",\"price\":" + (10 + i) + ".5}"));
                if (i == GOOD / 2) {
                    producer.send(new ProducerRecord<>(TOPIC, "bad", BAD_DOCUMENT));
                    producer.send(new ProducerRecord<>(MALFORMED_TOPIC, "bad", "not json{"));
                }
            }
        }
    }

    @AfterAll
    static void removeConnectors(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            for (String name : CONNECTORS) {
                try {
                    probe.connect.deleteConnector(name);
                } catch (ConnectRestException.ConnectorNotFound alreadyGone) {
                    // a test that failed early may not have made it
                }
            }
        }
    }

    @Test
    void theRejectedRecordGoesToTheDeadLetterTopicAndTheRestAreIndexed(LocalStack stack) throws Exception {
        String index = "rejections-dlq";
        createIndexWithDoublePrice(stack, index);
        Map<String, String> config = bulkConfig(stack, TOPIC, index);
        withDeadLetterTopic(config, DEAD_LETTERS);
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(CONNECTORS.get(0), config);

            Poll.untilTrue(
                    GOOD + " documents in " + index,
                    Duration.ofSeconds(60),
                    Duration.ofMillis(500),
                    () -> probe.documentCount(index) == GOOD,
                    () -> probe.documentCount(index) + " documents");
            ConsumerRecord<String, String> deadLetter = readOne(stack, DEAD_LETTERS);
            assertEquals(BAD_DOCUMENT, deadLetter.value());
            String reason = header(deadLetter, "__connect.errors.exception.message");
            assertTrue(
                    reason.startsWith("Elasticsearch rejected document " + TOPIC + "-0-" + (GOOD / 2 + 1) + ": "),
                    reason);
            assertTrue(reason.contains("mapper_parsing_exception"), reason);
            ConnectorStatus status = probe.connect.connectorStatus(CONNECTORS.get(0));
            assertEquals(1, status.tasksInState("RUNNING"), "the task carries on: " + status.tasks());
            Poll.untilTrue(
                    "every record committed, the rejected one included",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    () -> committed(probe, CONNECTORS.get(0), TOPIC) == GOOD + 1,
                    () -> "committed " + committed(probe, CONNECTORS.get(0), TOPIC));
        }
    }

    /** The connector's first task to be FAILED, within {@code timeout}. */
    private static ConnectorStatus.TaskStatus awaitFailedTask(StackProbe probe, String connector, Duration timeout) {
        return Poll.until(
                "a task of " + connector + " to fail",
                timeout,
                Duration.ofMillis(250),
                () -> failedTask(probe, connector));
    }

    private static Optional<ConnectorStatus.TaskStatus> failedTask(StackProbe probe, String connector) {
        return probe.connect.connectorStatus(connector).tasks().stream()
                .filter(t -> "FAILED".equals(t.state()))
                .findFirst();
    }

    @Test
    void withoutADeadLetterTopicTheTaskFailsNamingTheDocumentAndTheFix(LocalStack stack) throws Exception {
        String index = "rejections-strict";
        createIndexWithDoublePrice(stack, index);
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(CONNECTORS.get(1), bulkConfig(stack, TOPIC, index));

            ConnectorStatus.TaskStatus failed = awaitFailedTask(probe, CONNECTORS.get(1), Duration.ofSeconds(60));
            assertTrue(
                    failed.trace().contains("Elasticsearch rejected document " + TOPIC + "-0-" + (GOOD / 2 + 1) + ": "),
                    failed.trace());
            assertTrue(failed.trace().contains("mapper_parsing_exception"), failed.trace());
            assertTrue(
                    failed.trace().contains("set errors.tolerance=all and errors.deadletterqueue.topic.name"),
                    failed.trace());
            assertTrue(
                    committed(probe, CONNECTORS.get(1), TOPIC) <= GOOD / 2 + 1,
                    "nothing committed past the rejected record");
        }
    }

    @Test
    void aMalformedRecordFailsTheTaskWithin30SecondsNamingWhereItIs(LocalStack stack) throws Exception {
        String index = "malformed-strict";
        createIndexWithDoublePrice(stack, index);
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(CONNECTORS.get(2), bulkConfig(stack, MALFORMED_TOPIC, index));

            ConnectorStatus.TaskStatus failed = awaitFailedTask(probe, CONNECTORS.get(2), Duration.ofSeconds(30));
            assertTrue(
                    failed.trace()
                            .contains(
                                    "the record at topic " + MALFORMED_TOPIC + ", partition 0, offset " + (GOOD / 2 + 1)
                                            + " cannot be indexed: its value is not JSON: Unrecognized token 'not'"),
                    failed.trace());
            assertTrue(
                    committed(probe, CONNECTORS.get(2), MALFORMED_TOPIC) <= GOOD / 2 + 1,
                    "nothing committed past the malformed record");
        }
    }

    @Test
    void withDlqAMalformedRecordGoesToTheDeadLetterTopicAndTheLagDrains(LocalStack stack) throws Exception {
        String index = "malformed-dlq";
        createIndexWithDoublePrice(stack, index);
        Map<String, String> config = bulkConfig(stack, MALFORMED_TOPIC, index);
        config.put("kcscale.malformed.records", "dlq");
        withDeadLetterTopic(config, MALFORMED_DEAD_LETTERS);
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(CONNECTORS.get(3), config);

            Poll.untilTrue(
                    GOOD + " documents in " + index,
                    Duration.ofSeconds(60),
                    Duration.ofMillis(500),
                    () -> probe.documentCount(index) == GOOD,
                    () -> probe.documentCount(index) + " documents");
            ConsumerRecord<String, String> deadLetter = readOne(stack, MALFORMED_DEAD_LETTERS);
            assertEquals("not json{", deadLetter.value());
            String reason = header(deadLetter, "__connect.errors.exception.message");
            assertTrue(
                    reason.startsWith("the record at topic " + MALFORMED_TOPIC + ", partition 0, offset "
                            + (GOOD / 2 + 1) + " cannot be indexed: its value is not JSON"),
                    reason);
            Poll.untilTrue(
                    "every record committed, the malformed one included",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(250),
                    () -> committed(probe, CONNECTORS.get(3), MALFORMED_TOPIC) == GOOD + 1,
                    () -> "committed " + committed(probe, CONNECTORS.get(3), MALFORMED_TOPIC));
            ConnectorStatus status = probe.connect.connectorStatus(CONNECTORS.get(3));
            assertEquals(1, status.tasksInState("RUNNING"), "the task carries on: " + status.tasks());
        }
    }

    @Test
    void documentsRefusedForNowAsOftenAsAllowedFailTheTaskSayingWhatToChange(LocalStack stack) throws Exception {
        String index = "rejections-blocked";
        createIndexWithDoublePrice(stack, index);
        // what the disk monitor sets past the flood-stage watermark: every write is answered 429
        elasticsearch(stack, "PUT", "/" + index + "/_settings", "{\"index.blocks.read_only_allow_delete\":true}");
        Map<String, String> config = bulkConfig(stack, TOPIC, index);
        config.put("kcscale.retry.max.attempts", "3");
        config.put("kcscale.retry.backoff.initial.ms", "100");
        config.put("kcscale.retry.backoff.max.ms", "200");
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(CONNECTORS.get(4), config);

            ConnectorStatus.TaskStatus failed = Poll.until(
                    "the task to fail",
                    Duration.ofSeconds(60),
                    Duration.ofMillis(250),
                    () -> probe.connect.connectorStatus(CONNECTORS.get(4)).tasks().stream()
                            .filter(t -> "FAILED".equals(t.state()))
                            .findFirst());
            assertTrue(
                    failed.trace().contains(" of topic-partition " + TOPIC + "-0 3 times (429 Too Many Requests"),
                    failed.trace());
            assertTrue(
                    failed.trace()
                            .contains("free disk space on the data nodes past their flood-stage watermark"
                                    + " (cluster.routing.allocation.disk.watermark.flood_stage), lift the index's"
                                    + " index.blocks.read_only_allow_delete and restart the task"),
                    failed.trace());
            assertEquals(0, committed(probe, CONNECTORS.get(4), TOPIC), "nothing committed");
        } finally {
            elasticsearch(stack, "PUT", "/" + index + "/_settings", "{\"index.blocks.read_only_allow_delete\":null}");
        }
    }

    /**
     * An index Elasticsearch may not create (action.auto_create_index denies it) answers each bulk item 404
     * index_not_found_exception: no document's fault, so nothing is dead-lettered, nothing committed, and the
     * task fails saying what to change.
     */
    @Test
    void itemsRefusedWith404FailTheTaskAndNothingIsDeadLetteredOrCommitted(LocalStack stack) throws Exception {
        String index = "rejections-missing";
        String deadLetters = "rejections-missing-dlq";
        String connector = CONNECTORS.get(5);
        Map<String, String> config = bulkConfig(stack, TOPIC, index);
        withDeadLetterTopic(config, deadLetters);
        // cluster-wide, so denied for this index alone, and back to Elasticsearch's default after
        elasticsearch(
                stack,
                "PUT",
                "/_cluster/settings",
                "{\"persistent\":{\"action.auto_create_index\":\"-" + index + ",+*\"}}");
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(connector, config);

            // whichever comes first: the task failing, a dead letter or a commit
            Poll.untilTrue(
                    "a task of " + connector + " to fail, or a record dead-lettered or committed",
                    Duration.ofSeconds(60),
                    Duration.ofMillis(250),
                    () -> failedTask(probe, connector).isPresent()
                            || probe.recordsInTopic(deadLetters) > 0
                            || committed(probe, connector, TOPIC) > 0,
                    () -> "none yet: "
                            + probe.connect.connectorStatus(connector).tasks());
            assertEquals(0, probe.recordsInTopic(deadLetters), "nothing dead-lettered");
            assertEquals(0, committed(probe, connector, TOPIC), "nothing committed");
            ConnectorStatus.TaskStatus failed = failedTask(probe, connector).orElseThrow();
            assertTrue(
                    failed.trace()
                            .matches("(?s).*Elasticsearch refused \\d+ documents?, from topic " + TOPIC
                                    + ", partition 0, offset 0, for a reason no document is to blame for: document "
                                    + TOPIC + "-0-0 was refused with 404 Not Found \\(index_not_found_exception: .*"),
                    failed.trace());
            assertTrue(
                    failed.trace()
                            .contains("create the index, or let Elasticsearch create it (action.auto_create_index)"),
                    failed.trace());
        } finally {
            elasticsearch(stack, "PUT", "/_cluster/settings", "{\"persistent\":{\"action.auto_create_index\":null}}");
        }
    }

    @Test
    void anOutcomeTimeoutShorterThanABatchMayTakeIsRefusedByConnect(LocalStack stack) throws Exception {
        Map<String, String> config = bulkConfig(stack, TOPIC, "never-created");
        config.put("kcscale.bulk.outcome.timeout.ms", "60000");
        try (StackProbe probe = new StackProbe(stack)) {
            ConnectRestException.ConfigRejected refused = assertThrows(
                    ConnectRestException.ConfigRejected.class,
                    () -> probe.connect.putConnectorConfig("rejections-impatient", config));
            assertTrue(
                    refused.getMessage()
                            .contains(
                                    "kcscale.bulk.outcome.timeout.ms must be more than 122000 ms, got 60000: a record "
                                            + "may wait twice camel.aggregation.timeout (500 ms)"),
                    refused.getMessage());
            assertTrue(!probe.connect.connectors().contains("rejections-impatient"), "nothing may have been created");
        }
    }

    @Test
    void aBulkConfigWithoutTheCoordinatesTransformIsRefusedByConnect(LocalStack stack) throws Exception {
        Map<String, String> config = bulkConfig(stack, TOPIC, "never-created");
        config.remove("transforms");
        config.remove("transforms.coordinates.type");
        try (StackProbe probe = new StackProbe(stack)) {
            ConnectRestException.ConfigRejected refused = assertThrows(
                    ConnectRestException.ConfigRejected.class,
                    () -> probe.connect.putConnectorConfig("rejections-misconfigured", config));
            assertTrue(
                    refused.getMessage()
                            .contains("transforms must include a transform of type "
                                    + "io.kcscale.connectors.camel.CoordinatesHeaders"),
                    refused.getMessage());
            assertTrue(
                    !probe.connect.connectors().contains("rejections-misconfigured"), "nothing may have been created");
        }
    }

    private static Map<String, String> bulkConfig(LocalStack stack, String topic, String index) {
        return new HashMap<>(stack.connectorConfig(
                SinkMode.BULK.template(),
                Map.of(
                        "TOPIC",
                        topic,
                        "INDEX",
                        index,
                        "SINK_TASKS",
                        "1",
                        "ES_HOST_PORT",
                        stack.endpoints().elasticsearchUrl().getHost() + ":"
                                + stack.endpoints().elasticsearchUrl().getPort())));
    }

    private static void withDeadLetterTopic(Map<String, String> config, String topic) {
        config.put("errors.tolerance", "all");
        config.put("errors.deadletterqueue.topic.name", topic);
        config.put("errors.deadletterqueue.topic.replication.factor", "1");
        config.put("errors.deadletterqueue.context.headers.enable", "true");
    }

    private static void createIndexWithDoublePrice(LocalStack stack, String index) throws Exception {
        elasticsearch(
                stack,
                "PUT",
                "/" + index,
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0},"
                        + "\"mappings\":{\"properties\":{\"price\":{\"type\":\"double\"},\"symbol\":{\"type\":\"keyword\"}}}}");
    }

    private static void elasticsearch(LocalStack stack, String method, String path, String json) throws Exception {
        try (ElasticsearchConnection es =
                new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 10_000)) {
            Request request = new Request(method, path);
            request.setJsonEntity(json);
            es.restClient().performRequest(request);
        }
    }

    private static long committed(StackProbe probe, String connector, String topic) {
        return probe.kafka.committedOffsets("connect-" + connector, topic).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private static ConsumerRecord<String, String> readOne(LocalStack stack, String topic) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap());
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            Poll.untilTrue(
                    "a record in " + topic,
                    Duration.ofSeconds(30),
                    Duration.ZERO,
                    () -> {
                        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
                        return !records.isEmpty();
                    },
                    () -> "none yet");
            assertEquals(1, records.size(), "one dead letter: " + records);
            return records.get(0);
        }
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? "(no header " + name + ")" : new String(header.value(), StandardCharsets.UTF_8);
    }
}
