package io.kcscale.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.elasticsearch.client.Request;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.poll.Poll;

/** What end-to-end tests read from the running stack to assert on: exact counts, documents, offsets. */
final class StackProbe implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final ConnectRestClient connect;
    final KafkaReadingsClient kafka;
    private final ElasticsearchConnection elasticsearch;

    StackProbe(LocalStack stack) {
        this.connect = new ConnectRestClient(stack.endpoints().connectUrl());
        this.kafka = new KafkaReadingsClient(stack.endpoints().kafkaBootstrap(), Map.of(), java.time.Duration.ofSeconds(10));
        this.elasticsearch = new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 10_000);
    }

    /** Documents in the index after a refresh: every acknowledged write counted. */
    long documentCount(String index) {
        call("POST", "/" + index + "/_refresh");
        return call("GET", "/" + index + "/_count").path("count").asLong();
    }

    List<JsonNode> someDocuments(String index, int size) {
        List<JsonNode> docs = new ArrayList<>();
        call("GET", "/" + index + "/_search?size=" + size).path("hits").path("hits")
                .forEach(h -> docs.add(h.path("_source")));
        return docs;
    }

    long recordsInTopic(String topic) {
        return kafka.endOffsets(topic).values().stream().mapToLong(Long::longValue).sum();
    }

    long sinkLag() {
        Map<Integer, Long> end = kafka.endOffsets(StackOptions.TOPIC);
        Map<Integer, Long> committed = kafka.committedOffsets("connect-" + StackOptions.SINK_CONNECTOR, StackOptions.TOPIC);
        return end.entrySet().stream().mapToLong(e -> e.getValue() - committed.getOrDefault(e.getKey(), 0L)).sum();
    }

    /**
     * Waits until the source has stopped (the topic holds at least {@code atLeast} records and no more than a second
     * ago) and the sink has committed and indexed every record, and returns the records in the topic. More documents
     * than records fails at once.
     */
    long awaitEverythingIndexed(long atLeast, Duration timeout) {
        long[] previous = {-1};
        return Poll.until("every record indexed and committed", timeout, Duration.ofSeconds(1), () -> {
            // documents first: while the source still appends, a count of records taken before them can be the lower
            long documents = documentCount(StackOptions.INDEX);
            long records = recordsInTopic(StackOptions.TOPIC);
            long lag = sinkLag();
            if (documents > records) {
                throw new Poll.Abort(documents + " documents for " + records + " records: duplicates");
            }
            boolean sourceDone = records >= atLeast && records == previous[0];
            previous[0] = records;
            if (sourceDone && lag == 0 && documents == records) {
                return Optional.of(records);
            }
            throw new IllegalStateException(records + " records, " + documents + " documents, lag " + lag);
        });
    }

    /** Read-modify-write of a connector's whole configuration, changing only {@code changes}. */
    void updateConnector(String name, Map<String, String> changes) {
        Map<String, String> config = new HashMap<>(connect.connectorConfig(name));
        config.putAll(changes);
        connect.putConnectorConfig(name, config);
    }

    private JsonNode call(String method, String path) {
        try {
            var response = elasticsearch.restClient().performRequest(new Request(method, path));
            try (InputStream body = response.getEntity().getContent()) {
                return JSON.readTree(body);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        }
    }

    @Override
    public void close() throws IOException {
        kafka.close();
        elasticsearch.close();
    }
}
