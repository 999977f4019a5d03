package io.kcscale.connectors.camel;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An HTTP server answering {@code POST /_bulk} as Elasticsearch 7 does: each document whose
 * {@code price} is not a number is refused with a mapping error, the others are indexed; and single
 * documents at {@code /stocks/_doc/ID} (an id it generates when none is given). While {@link #down} is
 * set, every bulk request gets a 503.
 */
final class FakeElasticsearch implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final List<String> indexedIds = new CopyOnWriteArrayList<>();
    volatile boolean down;
    private final HttpServer server;

    FakeElasticsearch() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/_bulk", this::bulk);
        server.createContext("/stocks/_doc", this::document);
        server.start();
    }

    String hostAndPort() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    private void bulk(HttpExchange http) throws IOException {
        String body;
        try (InputStream in = http.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (down) {
            answer(http, 503, "{\"error\":\"unavailable\",\"status\":503}");
            return;
        }
        String[] lines = body.split("\n");
        List<String> items = new ArrayList<>();
        boolean errors = false;
        for (int i = 0; i + 1 < lines.length; i += 2) {
            JsonNode action = JSON.readTree(lines[i]).path("index");
            JsonNode source = JSON.readTree(lines[i + 1]);
            String id = action.path("_id").asText();
            String index = action.path("_index").asText();
            if (source.path("price").isNumber()) {
                indexedIds.add(id);
                items.add("{\"index\":{\"_index\":\"" + index + "\",\"_type\":\"_doc\",\"_id\":\"" + id + "\",\"_version\":1,"
                        + "\"result\":\"created\",\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0},\"_seq_no\":0,"
                        + "\"_primary_term\":1,\"status\":201}}");
            } else {
                errors = true;
                items.add("{\"index\":{\"_index\":\"" + index + "\",\"_type\":\"_doc\",\"_id\":\"" + id + "\",\"status\":400,"
                        + "\"error\":{\"type\":\"mapper_parsing_exception\",\"reason\":\"failed to parse field [price] of type [double]\"}}}");
            }
        }
        answer(http, 200, "{\"took\":1,\"errors\":" + errors + ",\"items\":[" + String.join(",", items) + "]}");
    }

    private void document(HttpExchange http) throws IOException {
        try (InputStream in = http.getRequestBody()) {
            in.readAllBytes();
        }
        String path = http.getRequestURI().getPath();
        String id = path.equals("/stocks/_doc") ? "generated-" + indexedIds.size() : path.substring("/stocks/_doc/".length());
        indexedIds.add(id);
        answer(http, 201, "{\"_index\":\"stocks\",\"_type\":\"_doc\",\"_id\":\"" + id + "\",\"_version\":1,\"result\":\"created\","
                + "\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0},\"_seq_no\":0,\"_primary_term\":1}");
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
        server.stop(0);
    }
}
