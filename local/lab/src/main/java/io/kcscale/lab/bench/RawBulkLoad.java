package io.kcscale.lab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Elasticsearch's own bulk index rate, with nothing in front of it: {@code _bulk} requests sent as one
 * sink task sends them (the sink's batch size, each document with an id of its own, as many in flight
 * as the sink allows), back to back, the bodies cycled from real records. The ceiling the bulk sink is
 * held against.
 */
final class RawBulkLoad {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long RUN = 500;
    private static final long PARTITIONS = 20;
    /** Longer than the Elasticsearch client's own timeouts. */
    private static final Duration LAST_REQUEST = Duration.ofMinutes(2);

    private final RestClient elasticsearch;
    private final String index;
    private final List<String> documents;
    private final int batchSize;
    private final AtomicLong sent = new AtomicLong();

    RawBulkLoad(RestClient elasticsearch, String index, List<String> documents, int batchSize) {
        if (documents.isEmpty()) {
            throw new IllegalArgumentException("no documents to send");
        }
        this.elasticsearch = elasticsearch;
        this.index = index;
        this.documents = documents;
        this.batchSize = batchSize;
    }

    /**
     * Sends bulk requests back to back for {@code window}, {@code inFlight} at a time (each from a
     * thread of its own, as the sink's client has a connection per request): documents indexed per second.
     */
    double docsPerSecond(Duration window, int inFlight) {
        long from = System.nanoTime();
        long until = from + window.toNanos();
        ExecutorService senders = Executors.newFixedThreadPool(inFlight);
        try {
            List<Future<Long>> indexed = new ArrayList<>();
            for (int i = 0; i < inFlight; i++) {
                indexed.add(senders.submit(() -> sendUntil(until)));
            }
            long total = 0;
            for (Future<Long> each : indexed) {
                // each sender stops at the window's end, its last request bounded by the client's timeouts
                total += each.get(window.toMillis() + LAST_REQUEST.toMillis(), TimeUnit.MILLISECONDS);
            }
            return total / ((System.nanoTime() - from) / 1e9);
        } catch (TimeoutException e) {
            throw new IllegalStateException("a raw bulk request had no answer within " + LAST_REQUEST.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring", e);
        } finally {
            senders.shutdownNow();
        }
    }

    private long sendUntil(long until) {
        long indexed = 0;
        while (System.nanoTime() < until) {
            sendOne();
            indexed += batchSize;
        }
        return indexed;
    }

    /**
     * The {@code n}th document's id, shaped as the sink's ({@code topic-partition-offset}): runs of {@value #RUN}
     * offsets of one partition, the partitions in turn, as a consumer's fetches hand them over. Elasticsearch looks
     * every id up before it indexes it, and a growing counter is the cheapest id to look up.
     */
    static String documentId(long n) {
        long partition = (n / RUN) % PARTITIONS;
        long offset = n / (RUN * PARTITIONS) * RUN + n % RUN;
        return "raw-" + partition + "-" + offset;
    }

    private void sendOne() {
        StringBuilder body = new StringBuilder(batchSize * 300);
        long first = sent.getAndAdd(batchSize);
        for (long id = first; id < first + batchSize; id++) {
            body.append("{\"index\":{\"_index\":\"").append(index).append("\",\"_id\":\"").append(documentId(id)).append("\"}}\n")
                    .append(documents.get((int) (id % documents.size()))).append('\n');
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
