package io.kcscale.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.elasticsearch.client.Request;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.kcscale.local.LocalStack;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.poll.Poll;

/**
 * Topics, indices and connectors a test adds to the shared stack, all removed again on close
 * (connectors first, then their sink groups, topics and indices), so the next test finds the stack
 * as it was.
 */
final class ScratchPipeline implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final StackProbe probe;
    private final LocalStack stack;
    private final ElasticsearchConnection elasticsearch;
    private final List<String> connectors = new ArrayList<>();
    private final List<String> topics = new ArrayList<>();
    private final List<String> indices = new ArrayList<>();

    ScratchPipeline(LocalStack stack) {
        this.stack = stack;
        this.probe = new StackProbe(stack);
        this.elasticsearch = new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 10_000);
    }

    void topic(String name, int partitions) throws Exception {
        topics.add(name);
        probe.kafka.admin().createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
    }

    void index(String name, int shards) throws IOException {
        indices.add(name);
        Request create = new Request("PUT", "/" + name);
        create.setJsonEntity("{\"settings\":{\"number_of_shards\":" + shards + ",\"number_of_replicas\":0}}");
        elasticsearch.restClient().performRequest(create);
    }

    /** The datagen source of {@code configs/connectors}, writing {@code topic} keyed by {@code keyField}. */
    void source(String name, String topic, String keyField, double ratePerSecond, Map<String, String> extra) {
        Map<String, String> config = new LinkedHashMap<>(stack.connectorConfig("stocks-datagen.json", Map.of("TOPIC", topic,
                "KEY_FIELD", keyField, "RATE_PER_TASK", String.valueOf(ratePerSecond), "ITERATIONS", "-1")));
        config.putAll(extra);
        connector(name, config);
    }

    /** The per-record Camel sink of {@code configs/connectors}, from {@code topic} into {@code index}. */
    Map<String, String> sinkConfig(String topic, String index, int tasks) {
        URI es = stack.endpoints().elasticsearchUrl();
        return stack.connectorConfig("stocks-es-sink.json", Map.of("TOPIC", topic, "INDEX", index,
                "SINK_TASKS", String.valueOf(tasks), "ES_HOST_PORT", es.getHost() + ":" + es.getPort()));
    }

    /** A sink writing into {@code index}, which the sink creates when it does not exist; both go on close. */
    void sink(String name, String topic, String index, int tasks) {
        if (!indices.contains(index)) {
            indices.add(index);
        }
        connector(name, sinkConfig(topic, index, tasks));
    }

    /** A sink created STOPPED (Connect's {@code initial_state}): it exists with its config but consumes nothing. */
    void stoppedSink(String name, String topic, String index) throws Exception {
        stoppedConnector(name, sinkConfig(topic, index, 1));
    }

    /** A connector created STOPPED: Connect lists it with its config, and it runs no task. */
    void stoppedConnector(String name, Map<String, String> config) throws Exception {
        connectors.add(name);
        post(Map.of("name", name, "config", config, "initial_state", "STOPPED"));
    }

    /**
     * A sink created with {@code POST /connectors}, the name in the body: the one way to create a connector whose
     * name Connect's web server refuses in a path ({@code /} or {@code %}); on close such a connector is removed
     * through Connect's config topic, as Connect's own DELETE would remove it.
     */
    void postedSink(String name, String topic, String index, int tasks) throws Exception {
        connectors.add(name);
        indices.add(index);
        post(Map.of("name", name, "config", sinkConfig(topic, index, tasks)));
    }

    private void post(Map<String, Object> body) throws Exception {
        HttpResponse<String> created = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        stack.endpoints().connectUrl().resolve("/connectors")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() != 201) {
            throw new IllegalStateException("creating " + body.get("name") + ": " + created.statusCode() + " " + created.body());
        }
    }

    void connector(String name, Map<String, String> config) {
        connectors.add(name);
        probe.connect.putConnectorConfig(name, config);
    }

    /** Waits until the connector runs exactly {@code tasks} tasks. */
    void awaitRunning(String name, int tasks) {
        new ConnectorChange(probe.connect, Duration.ofSeconds(60)).awaitRunning(name, tasks);
    }

    @Override
    public void close() throws Exception {
        for (String name : connectors) {
            try {
                probe.connect.deleteConnector(name);
            } catch (ConnectRestException.ConnectorNotFound gone) {
                // deleted by the test itself
            } catch (ConnectRestException.PathRejected unaddressable) {
                deleteThroughConfigTopic(name);
            }
            deleteGroup(SinkTarget.consumerGroup(name));
        }
        if (!topics.isEmpty()) {
            probe.kafka.admin().deleteTopics(topics).all().get();
        }
        for (String index : indices) {
            elasticsearch.restClient().performRequest(new Request("DELETE", "/" + index + "?ignore_unavailable=true"));
        }
        elasticsearch.close();
        probe.close();
    }

    /** Tombstones for the connector's config and target state in Connect's config topic: what its DELETE writes. */
    private void deleteThroughConfigTopic(String name) throws Exception {
        Properties worker = new Properties();
        try (var in = Files.newBufferedReader(stack.options().home().resolve("configs/connect/worker.properties"))) {
            worker.load(in);
        }
        String topic = worker.getProperty("config.storage.topic");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                "acks", "all"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "connector-" + name, null)).get();
            producer.send(new ProducerRecord<>(topic, "target-state-" + name, null)).get();
        }
        Poll.untilTrue(name + " gone from Connect", Duration.ofSeconds(60), Duration.ofMillis(250),
                () -> !probe.connect.connectors().contains(name), () -> "still listed");
    }

    /** A deleted sink's group lingers until its members have left: retried until it is gone (or never existed). */
    private void deleteGroup(String group) {
        Poll.until("consumer group " + group + " deleted", Duration.ofSeconds(60), Duration.ofMillis(500), () -> {
            try {
                probe.kafka.admin().deleteConsumerGroups(List.of(group)).all().get();
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof GroupIdNotFoundException || e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Poll.Abort("interrupted");
            }
            return Optional.of(group);
        });
    }
}
