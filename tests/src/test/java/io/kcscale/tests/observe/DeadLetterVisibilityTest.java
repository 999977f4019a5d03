package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the scaler shows of a sink that dead-letters: a per-record sink with {@code kcscale.malformed.records=dlq}
 * and a dead-letter topic, fed good and malformed records alike. Its lag stays near zero and its tasks RUNNING,
 * yet the snapshot is not stable and names the rate and the latest reason, the {@code dead-letters} check warns,
 * and the metric the alert watches is above 0. Its own topic, index, connector and scaler, on the shared stack.
 */
@org.junit.jupiter.api.Order(6)
@ExtendWith(SharedStack.class)
class DeadLetterVisibilityTest {

    private static final String TOPIC = "dead-letter-visibility";
    private static final String DEAD_LETTERS = "dead-letter-visibility-dlq";
    private static final String CONNECTOR = "dead-letter-visibility-sink";
    private static final String PATH = "/api/v1/connectors/" + CONNECTOR;

    private static InProcessScaler ownScaler;
    private static ScalerHttp scaler;

    @BeforeAll
    static void startScaler(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            probe.kafka
                    .admin()
                    .createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1)))
                    .all()
                    .get();
        }
        ownScaler = InProcessScaler.start(stack, Map.of("window.seconds", "6", "sample.interval.seconds", "1"));
        scaler = ownScaler.http;
    }

    @AfterAll
    static void stopScaler(LocalStack stack) throws Exception {
        ownScaler.close();
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.deleteConnector(CONNECTOR);
        } catch (ConnectRestException.ConnectorNotFound neverMade) {
            // the test failed before creating it
        }
    }

    @Test
    void aSinkThatDeadLettersIsNotStableAndTheScalerSaysWhatAndWhy(LocalStack stack) throws Exception {
        Map<String, String> config = new HashMap<>(stack.connectorConfig(
                SinkMode.INDEX.template(),
                Map.of(
                        "TOPIC",
                        TOPIC,
                        "INDEX",
                        TOPIC,
                        "SINK_TASKS",
                        "1",
                        "ES_HOST_PORT",
                        stack.endpoints().elasticsearchUrl().getHost() + ":"
                                + stack.endpoints().elasticsearchUrl().getPort())));
        config.put("kcscale.malformed.records", "dlq");
        config.put("errors.tolerance", "all");
        config.put("errors.deadletterqueue.topic.name", DEAD_LETTERS);
        config.put("errors.deadletterqueue.topic.replication.factor", "1");
        config.put("errors.deadletterqueue.context.headers.enable", "true");
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer =
                new Thread(() -> produceGoodAndMalformed(stack, producing), "dead-letter-visibility-producer");
        try (StackProbe probe = new StackProbe(stack)) {
            probe.connect.putConnectorConfig(CONNECTOR, config);
            producer.start();

            JsonNode snapshot = scaler.awaitGet(
                    PATH,
                    s -> s.path("deadLetters").path("appendPerSecond").asDouble() > 0
                            && s.path("deadLetters").path("latestReason").isTextual(),
                    Duration.ofSeconds(90));
            assertEquals(
                    DEAD_LETTERS, snapshot.path("deadLetters").path("topic").asText());
            assertTrue(
                    snapshot.path("deadLetters").path("latestReason").asText().contains("its value is not JSON"),
                    snapshot.toString());
            assertFalse(snapshot.path("stable").asBoolean(), "a sink that dead-letters is not stable: " + snapshot);
            assertTrue(
                    snapshot.path("reasons").toString().contains("records dead-lettered to " + DEAD_LETTERS),
                    snapshot.toString());

            JsonNode report = scaler.awaitGet(
                    PATH + "/checks",
                    r -> deadLetterFinding(r).path("severity").asText().equals("warning"),
                    Duration.ofSeconds(60));
            assertTrue(
                    deadLetterFinding(report)
                            .path("title")
                            .asText()
                            .startsWith("records are dead-lettered to " + DEAD_LETTERS),
                    report.toString());

            String metric = Poll.until(
                    "the dead-letter rate in /metrics",
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(1),
                    () -> scaler.get("/metrics")
                            .raw()
                            .lines()
                            .filter(l -> l.startsWith("kcscale_dead_letter_append_rate_records_per_second{")
                                    && l.contains("connector=\"" + CONNECTOR + "\"")
                                    && !l.endsWith(" 0.0"))
                            .findFirst());
            assertTrue(Double.parseDouble(metric.substring(metric.lastIndexOf(' ') + 1)) > 0, metric);
        } finally {
            producing.set(false);
            producer.join(10_000);
        }
    }

    private static JsonNode deadLetterFinding(JsonNode report) {
        for (JsonNode f : report.path("findings")) {
            if ("dead-letters".equals(f.path("id").asText())) {
                return f;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** Four good records and one malformed one every 100 ms, for two minutes at most. */
    private static void produceGoodAndMalformed(LocalStack stack, AtomicBoolean producing) {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap());
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; producing.get() && System.nanoTime() < deadline; i++) {
                for (int j = 0; j < 4; j++) {
                    producer.send(
                            new ProducerRecord<>(TOPIC, "k" + i, "{\"symbol\":\"DLV\",\"price\":" + i + "." + j + "}"));
                }
                producer.send(new ProducerRecord<>(TOPIC, "bad" + i, "not json{" + i));
                producer.flush();
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
