package io.kcscale.lab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Elasticsearch's own bulk index rate, with nothing in front of it: {@code _bulk} requests sent as one
 * sink task sends them (one at a time, the sink's batch size, each document with an id of its own),
 * back to back, the bodies cycled from real records. The ceiling the bulk sink is held against.
 */
final class RawBulkLoad {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RestClient elasticsearch;
    private final String index;
    private final List<String> documents;
    private final int batchSize;
    private long sent;

    RawBulkLoad(RestClient elasticsearch, String index, List<String> documents, int batchSize) {
        if (documents.isEmpty()) {
            throw new IllegalArgumentException("no documents to send");
        }
        this.elasticsearch = elasticsearch;
        this.index = index;
        this.documents = documents;
        this.batchSize = batchSize;
    }

    /** Sends bulk requests back to back, one in flight, for {@code window}: documents indexed per second. */
    double docsPerSecond(Duration window) {
        long from = System.nanoTime();
        long until = from + window.toNanos();
        long indexed = 0;
        while (System.nanoTime() < until) {
            sendOne();
            indexed += batchSize;
        }
        return indexed / ((System.nanoTime() - from) / 1e9);
    }

    private void sendOne() {
        StringBuilder body = new StringBuilder(batchSize * 300);
        for (int i = 0; i < batchSize; i++, sent++) {
            body.append("{\"index\":{\"_index\":\"").append(index).append("\",\"_id\":\"raw-").append(sent).append("\"}}\n")
                    .append(documents.get((int) (sent % documents.size()))).append('\n');
        }
        Request request = new Request("POST", "/_bulk");
        request.setJsonEntity(body.toString());
        try {
            Response response = elasticsearch.performRequest(request);
            JsonNode answer;
            try (InputStream in = response.getEntity().getContent()) {
                answer = JSON.readTree(in);
            }
            if (answer.path("errors").asBoolean(true)) {
                throw new IllegalStateException("Elasticsearch rejected documents of a raw bulk request: "
                        + answer.path("items").path(0));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a raw bulk request to Elasticsearch failed", e);
        }
    }
}
