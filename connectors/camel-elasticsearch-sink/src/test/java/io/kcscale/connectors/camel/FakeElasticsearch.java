package io.kcscale.connectors.camel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP server answering {@code POST /_bulk} as Elasticsearch 7 does: each document whose
 * {@code price} is not a number is refused with a mapping error, each whose id is in
 * {@link #overloadedIds} with a 429 (a full write queue), each of {@link #refusedItems} with the status and
 * error given there, the others are indexed; and single documents
 * at {@code /stocks/_doc/ID} (an id it generates when none is given), refused alike. While
 * {@link #refusingWith} is set, every request gets an error with that status; a bulk request holding
 * an id of {@link #failingIds} gets a 503 as a whole. Requests are answered concurrently; one holding an
 * id of {@link #heldIds} waits until {@link #release} (or 30 s); while {@link #queueing}, every bulk request
 * waits its turn, which {@link #answerNext} gives the oldest waiting.
 */
final class FakeElasticsearch implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final List<String> indexedIds = new CopyOnWriteArrayList<>();
    /** Every document id of every bulk request, in the order they came. */
    final List<String> sentIds = new CopyOnWriteArrayList<>();
    /** When each document id first came in a bulk request ({@link System#nanoTime}). */
    final Map<String, Long> firstSentNanos = new ConcurrentHashMap<>();

    final Set<String> overloadedIds = ConcurrentHashMap.newKeySet();

    /** An item's refusal: its status and Elasticsearch's error type. */
    record ItemRefusal(int status, String type) {}

    final Map<String, ItemRefusal> refusedItems = new ConcurrentHashMap<>();
    /** The HTTP status every request is refused with; 0 to answer them. */
    volatile int refusingWith;

    final Set<String> failingIds = ConcurrentHashMap.newKeySet();
    final Set<String> heldIds = ConcurrentHashMap.newKeySet();
    /** Bulk requests wait their turn in the order they came: {@link #answerNext} answers one. */
    volatile boolean queueing;
    /** Bulk requests received and not answered yet, and the most there were at once. */
    final AtomicInteger bulkInFlight = new AtomicInteger();

    final AtomicInteger mostBulkInFlight = new AtomicInteger();
    /** Single-document requests received, refused or not. */
    final AtomicInteger documentRequests = new AtomicInteger();

    private final Object held = new Object();
    /** Bulk requests that came, and that may be answered, while {@link #queueing}: guarded by {@link #held}. */
    private long came;

    private long answerable;
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final HttpServer server;

    FakeElasticsearch() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/_bulk", this::bulk);
        server.createContext("/stocks/_doc", this::document);
        server.setExecutor(handlers);
        server.start();
    }

    /** Answers the requests {@link #heldIds} holds or {@link #queueing} queues, and those to come. */
    void release() {
        synchronized (held) {
            heldIds.clear();
            queueing = false;
            held.notifyAll();
        }
    }

    /** Lets the oldest bulk request still waiting its turn be answered. */
    void answerNext() {
        synchronized (held) {
            answerable++;
            held.notifyAll();
        }
    }

    String hostAndPort() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    private void bulk(HttpExchange http) throws IOException {
        String body;
        try (InputStream in = http.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String[] lines = body.split("\n");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < lines.length; i += 2) {
            ids.add(JSON.readTree(lines[i]).path("index").path("_id").asText());
        }
        long now = System.nanoTime();
        ids.forEach(id -> firstSentNanos.putIfAbsent(id, now));
        long turn;
        synchronized (held) {
            sentIds.addAll(ids);
            turn = came++;
        }
        mostBulkInFlight.accumulateAndGet(bulkInFlight.incrementAndGet(), Math::max);
        try {
            awaitRelease(ids, turn);
            if (ids.stream().anyMatch(failingIds::contains)) {
                answer(
                        http,
                        503,
                        "{\"error\":{\"type\":\"unavailable\",\"reason\":\"failed by the test\"},\"status\":503}");
            } else if (!refused(http)) {
                answerBulk(http, lines);
            }
        } finally {
            bulkInFlight.decrementAndGet();
        }
    }

    private void awaitRelease(List<String> ids, long turn) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        synchronized (held) {
            while ((ids.stream().anyMatch(heldIds::contains) || (queueing && turn >= answerable))
                    && System.nanoTime() < deadline) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(held, deadline - System.nanoTime());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void answerBulk(HttpExchange http, String[] lines) throws IOException {
        List<String> items = new ArrayList<>();
        boolean errors = false;
        for (int i = 0; i + 1 < lines.length; i += 2) {
            JsonNode action = JSON.readTree(lines[i]).path("index");
            JsonNode source = JSON.readTree(lines[i + 1]);
            String id = action.path("_id").asText();
            String index = action.path("_index").asText();
            ItemRefusal refusal = refusedItems.get(id);
            if (refusal != null) {
                errors = true;
                items.add("{\"index\":{\"_index\":\"" + index + "\",\"_type\":\"_doc\",\"_id\":\"" + id
                        + "\",\"status\":" + refusal.status() + ",\"error\":{\"type\":\"" + refusal.type()
                        + "\",\"reason\":\"refused by the test\"}}}");
            } else if (overloadedIds.contains(id)) {
                errors = true;
                items.add("{\"index\":{\"_index\":\"" + index + "\",\"_type\":\"_doc\",\"_id\":\"" + id
                        + "\",\"status\":429,"
                        + "\"error\":{\"type\":\"es_rejected_execution_exception\",\"reason\":\"rejected execution of coordinating "
                        + "operation [queue capacity = 0]\"}}}");
            } else if (source.path("price").isNumber()) {
                indexedIds.add(id);
                items.add("{\"index\":{\"_index\":\"" + index + "\",\"_type\":\"_doc\",\"_id\":\"" + id
                        + "\",\"_version\":1,"
                        + "\"result\":\"created\",\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0},\"_seq_no\":0,"
                        + "\"_primary_term\":1,\"status\":201}}");
            } else {
                errors = true;
                items.add(
                        "{\"index\":{\"_index\":\"" + index + "\",\"_type\":\"_doc\",\"_id\":\"" + id
                                + "\",\"status\":400,"
                                + "\"error\":{\"type\":\"mapper_parsing_exception\",\"reason\":\"failed to parse field [price] of type [double]\"}}}");
            }
        }
        answer(http, 200, "{\"took\":1,\"errors\":" + errors + ",\"items\":[" + String.join(",", items) + "]}");
    }

    private void document(HttpExchange http) throws IOException {
        documentRequests.incrementAndGet();
        JsonNode source;
        try (InputStream in = http.getRequestBody()) {
            source = JSON.readTree(in);
        }
        if (refused(http)) {
            return;
        }
        if (!source.path("price").isNumber()) {
            answer(
                    http,
                    400,
                    "{\"error\":{\"root_cause\":[{\"type\":\"mapper_parsing_exception\",\"reason\":\"failed to parse "
                            + "field [price] of type [double]\"}],\"type\":\"mapper_parsing_exception\",\"reason\":\"failed to parse field "
                            + "[price] of type [double]\"},\"status\":400}");
            return;
        }
        String path = http.getRequestURI().getPath();
        String id = path.equals("/stocks/_doc")
                ? "generated-" + indexedIds.size()
                : path.substring("/stocks/_doc/".length());
        indexedIds.add(id);
        answer(
                http,
                201,
                "{\"_index\":\"stocks\",\"_type\":\"_doc\",\"_id\":\"" + id
                        + "\",\"_version\":1,\"result\":\"created\","
                        + "\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0},\"_seq_no\":0,\"_primary_term\":1}");
    }

    private boolean refused(HttpExchange http) throws IOException {
        int status = refusingWith;
        if (status != 0) {
            answer(
                    http,
                    status,
                    "{\"error\":{\"root_cause\":[{\"type\":\"refused\",\"reason\":\"refused by the test\"}],"
                            + "\"type\":\"refused\",\"reason\":\"refused by the test\"},\"status\":" + status + "}");
        }
        return status != 0;
    }

    private static void answer(HttpExchange http, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        http.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
        http.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = http.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        handlers.shutdownNow();
    }
}
