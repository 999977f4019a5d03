package io.kcscale.local.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Elasticsearch's own bulk index rate, with nothing in front of it: one client sending {@code _bulk}
 * requests of the sink's batch size back to back, each document with an id of its own (as the bulk
 * sink sends them), the bodies cycled from real records. The ceiling the bulk sink is held against.
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

    /** Sends bulk requests on this thread until {@code until} (a System.nanoTime deadline); returns documents indexed. */
    long sendUntil(long until) {
        long indexed = 0;
        while (System.nanoTime() < until) {
            indexed += sendOne();
        }
        return indexed;
    }

    private int sendOne() {
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
            return batchSize;
        } catch (IOException e) {
            throw new UncheckedIOException("a raw bulk request to Elasticsearch failed", e);
        }
    }
}
