package io.kcscale.scaler.cli;

import com.sun.net.httpserver.HttpServer;
import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for the scaler's REST API in CLI unit tests: answers every request with the status and
 * body set last, and remembers the last request's method and URI. The real API is tested end to end.
 */
final class StandInScaler implements AutoCloseable {

    private final HttpServer server;
    private volatile int status = 200;
    private volatile Object body = "{}";
    private volatile String lastRequest;

    StandInScaler() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            lastRequest = exchange.getRequestMethod() + " " + exchange.getRequestURI();
            byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    /** What the next requests are answered with: a status and a body serialized as JSON. */
    void answer(int status, Object body) {
        this.status = status;
        this.body = body;
    }

    /** The last request as {@code METHOD /path?query}, the path as it was sent (still percent-encoded). */
    String lastRequest() {
        return lastRequest;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
