package io.kcscale.local.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Elasticsearch's own bulk index rate, with nothing in front of it: clients sending {@code _bulk}
 * requests of the sink's batch size back to back, each document with an id of its own (as the bulk
 * sink sends them), the bodies cycled from real records. As many clients as the machine has cores
 * keep every write thread of the node busy: the ceiling the bulk sink is held against.
 */
final class RawBulkLoad {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RestClient elasticsearch;
    private final String index;
    private final List<String> documents;
    private final int batchSize;

    RawBulkLoad(RestClient elasticsearch, String index, List<String> documents, int batchSize) {
        if (documents.isEmpty()) {
            throw new IllegalArgumentException("no documents to send");
        }
        this.elasticsearch = elasticsearch;
        this.index = index;
        this.documents = documents;
        this.batchSize = batchSize;
    }

    /** Documents indexed per second by {@code clients} clients over {@code meter}'s window, after its warm-up. */
    double docsPerSecond(int clients, RateMeter meter) {
        long start = System.nanoTime();
        long measureFrom = start + meter.warmup().toNanos();
        long until = measureFrom + meter.window().toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Long>> counts = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                String idPrefix = "raw-" + client + "-";
                counts.add(pool.submit(() -> sendUntil(idPrefix, measureFrom, until)));
            }
            long indexed = 0;
            for (Future<Long> count : counts) {
                indexed += count.get();
            }
            return indexed / ((System.nanoTime() - measureFrom) / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Sends until {@code until}; counts the documents of requests answered after {@code measureFrom} (nanoTime). */
    private long sendUntil(String idPrefix, long measureFrom, long until) {
        long indexed = 0;
        for (long sent = 0; System.nanoTime() < until; sent += batchSize) {
            send(idPrefix, sent);
            if (System.nanoTime() > measureFrom) {
                indexed += batchSize;
            }
        }
        return indexed;
    }

    private void send(String idPrefix, long firstId) {
        StringBuilder body = new StringBuilder(batchSize * 300);
        for (long id = firstId; id < firstId + batchSize; id++) {
            body.append("{\"index\":{\"_index\":\"").append(index).append("\",\"_id\":\"").append(idPrefix).append(id)
                    .append("\"}}\n").append(documents.get((int) (id % documents.size()))).append('\n');
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
