package io.kcscale.tests.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.ScratchPipeline;
import io.kcscale.tests.fixtures.SharedStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.elasticsearch.client.Request;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A closed index is no document's fault: closing it for 30 s once sent 3,035 records to the
 * dead-letter topic. Both sink modes, with a dead-letter topic, read records produced while their
 * index is closed: nothing may be committed past them while it stays closed, none may be
 * dead-lettered, and once it is open again every record is indexed and the tasks still run. Meanwhile
 * a scaler of the test's own (a 6 s window) says each sink is stalled, its task committing nothing, and
 * that it dead-letters nothing. A task that committed once, when it caught up before the index closed,
 * has no commit interval of its own, so the scaler gives it Connect's default minute plus the window
 * before it reads stalled: the index stays closed until the scaler says so for both sinks, within
 * {@link #CLOSED_AT_MOST}. The sends are bounded by the sink's retry settings, raised here so that the
 * tasks outlast that closure rather than fail.
 */
@Order(6)
@ExtendWith(SharedStack.class)
class ClosedIndexTest {

    private static final String TOPIC = "closed-index";
    private static final int BEFORE = 5;
    private static final int WHILE_CLOSED = 20;
    /** How long the index stays closed at least: several sends of each refused document, and several of the scaler's windows. */
    private static final Duration CLOSED_FOR = Duration.ofSeconds(30);
    /** The window, Connect's default commit interval, and time for the stall to be sampled and served. */
    private static final Duration CLOSED_AT_MOST = Duration.ofSeconds(6 + 60 + 40);

    private static final List<SinkUnderTest> SINKS = SinkUnderTest.bothModes("closed");

    @Test
    void recordsWaitForAClosedIndexAndNoneIsDeadLettered(LocalStack stack) throws Exception {
        try (ScratchPipeline pipeline = new ScratchPipeline(stack);
                ElasticsearchConnection elasticsearch =
                        new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 10_000);
                InProcessScaler scaler =
                        InProcessScaler.start(stack, Map.of("window.seconds", "6", "sample.interval.seconds", "1"))) {
            pipeline.topic(TOPIC, 1);
            for (SinkUnderTest sink : SINKS) {
                pipeline.topic(sink.deadLetters(), 1);
                pipeline.index(sink.index(), 1);
            }
            produce(stack, 0, BEFORE);
            for (SinkUnderTest sink : SINKS) {
                Map<String, String> config = sink.config(stack, TOPIC);
                // sent again every 5 s at most for as long as the index may stay closed, not 10 sends in a minute or
                // two
                config.put("kcscale.retry.max.attempts", "100");
                config.put("kcscale.retry.backoff.max.ms", "5000");
                pipeline.connector(sink.connector(), config);
            }
            awaitCommitted(pipeline, BEFORE);

            for (SinkUnderTest sink : SINKS) {
                elasticsearch.restClient().performRequest(new Request("POST", "/" + sink.index() + "/_close"));
            }
            produce(stack, BEFORE, WHILE_CLOSED);
            long closedAt = System.nanoTime();
            long reopenAt = closedAt + CLOSED_FOR.toNanos();
            Set<String> seenStalled = new HashSet<>();
            Poll.untilTrue(
                    "the index closed for " + CLOSED_FOR.toSeconds() + " s and each sink read stalled",
                    CLOSED_AT_MOST,
                    Duration.ofMillis(250),
                    () -> {
                        for (SinkUnderTest sink : SINKS) {
                            assertEquals(
                                    BEFORE,
                                    sink.committed(pipeline.probe, TOPIC),
                                    sink.mode() + ": nothing committed past the closed index");
                            JsonNode snapshot = scaler.http
                                    .get("/api/v1/connectors/" + sink.connector())
                                    .body();
                            if (notStableAndDeadLetteringNothing(snapshot)) {
                                seenStalled.add(sink.mode());
                            }
                        }
                        return System.nanoTime() - reopenAt >= 0 && seenStalled.size() == SINKS.size();
                    },
                    () -> "the scaler said: "
                            + SINKS.stream()
                                    .map(sink -> scaler.http
                                            .get("/api/v1/connectors/" + sink.connector())
                                            .raw())
                                    .toList());
            System.out.printf(
                    "[closed index] both sinks read stalled %.0f s after their index closed%n",
                    (System.nanoTime() - closedAt) / 1e9);
            for (SinkUnderTest sink : SINKS) {
                elasticsearch.restClient().performRequest(new Request("POST", "/" + sink.index() + "/_open"));
            }

            awaitCommitted(pipeline, BEFORE + WHILE_CLOSED);
            for (SinkUnderTest sink : SINKS) {
                assertEquals(
                        BEFORE + WHILE_CLOSED,
                        pipeline.probe.documentCount(sink.index()),
                        sink.mode() + ": every record indexed");
                assertEquals(Map.of(), sink.deadLetterReasons(stack), sink.mode() + ": nothing dead-lettered");
                ConnectorStatus status = pipeline.probe.connect.connectorStatus(sink.connector());
                assertEquals(
                        1, status.tasksInState("RUNNING"), sink.mode() + ": the task carries on: " + status.tasks());
            }
        }
    }

    /** Not stable because its task commits nothing, while the dead-letter topic is shown and takes nothing. */
    private static boolean notStableAndDeadLetteringNothing(JsonNode snapshot) {
        return snapshot != null
                && !snapshot.path("stable").asBoolean(true)
                && "stalled".equals(snapshot.path("lag").path("verdict").asText())
                && snapshot.path("reasons").toString().contains("committed nothing")
                && snapshot.path("deadLetters").path("appendPerSecond").isNumber()
                && snapshot.path("deadLetters").path("appendPerSecond").asDouble() == 0.0;
    }

    private static void awaitCommitted(ScratchPipeline pipeline, long records) {
        for (SinkUnderTest sink : SINKS) {
            Poll.untilTrue(
                    sink.mode() + ": " + records + " records committed",
                    Duration.ofSeconds(90),
                    Duration.ofMillis(500),
                    () -> sink.committed(pipeline.probe, TOPIC) == records,
                    () -> "committed " + sink.committed(pipeline.probe, TOPIC) + "; "
                            + pipeline.probe
                                    .connect
                                    .connectorStatus(sink.connector())
                                    .tasks());
        }
    }

    private static void produce(LocalStack stack, int from, int count) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.endpoints().kafkaBootstrap(),
                ProducerConfig.ACKS_CONFIG,
                "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(
                                TOPIC, 0, null, ("{\"trade\":" + i + "}").getBytes(StandardCharsets.UTF_8)))
                        .get();
            }
        }
    }
}
