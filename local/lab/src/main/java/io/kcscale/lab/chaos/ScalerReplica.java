package io.kcscale.lab.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.lab.bench.PageGet;
import io.kcscale.local.ChildJvm;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.poll.Poll;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One scaler replica of the benchmark: a {@code serve} process of its own, which reaches Kafka only through its
 * {@link TcpProxy} and Connect only through its {@link ConnectGate}; started, stopped, frozen and cut as the schedule
 * says. Its instance id changes with every start.
 */
final class ScalerReplica implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(2);
    /** A scaler's start on a busy machine: a JVM, the state topic read, the first observation. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final LocalStack stack;
    private final String name;
    private final int port;
    private final String clusterId;
    private final TcpProxy kafka;
    private final ConnectGate connect;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(ASK_TIMEOUT).build();
    private volatile ChildJvm process;
    private volatile String instanceId;

    ScalerReplica(LocalStack stack, String name, int port, String clusterId, TcpProxy kafka, ConnectGate connect) {
        this.stack = stack;
        this.name = name;
        this.port = port;
        this.clusterId = clusterId;
        this.kafka = kafka;
        this.connect = connect;
    }

    String name() {
        return name;
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    TcpProxy kafka() {
        return kafka;
    }

    ConnectGate connect() {
        return connect;
    }

    /** The id of its current process, as it answered once started. */
    String instanceId() {
        return instanceId;
    }

    /** Starts its process and returns once it answers, with its id. */
    void start() {
        process = stack.startScaler(
                name, port, connect.url(), "127.0.0.1:" + kafka.port(), List.of("--scaler-cluster-id", clusterId));
        ChildJvm started = process;
        instanceId = Poll.until(
                        "the scaler replica " + name + " to answer", START_TIMEOUT, Duration.ofMillis(250), () -> {
                            if (!started.isAlive()) {
                                throw new Poll.Abort(name + " exited:\n" + started.logTail(30));
                            }
                            return instance();
                        })
                .path("id")
                .asText();
    }

    /** What {@code GET /api/v1/instance} answers now; empty when it does not (down, frozen, busy). */
    Optional<JsonNode> instance() {
        try {
            return Optional.of(JSON.readTree(PageGet.text(http, url().resolve("/api/v1/instance"), ASK_TIMEOUT, 1)));
        } catch (IOException | RuntimeException unanswered) {
            return Optional.empty();
        }
    }

    /** {@code PUT} of {@code body} at {@code path}; the status. */
    int put(String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(url().resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new IllegalStateException(name + " did not answer PUT " + path + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** What {@code GET path} answers, as JSON. */
    JsonNode get(String path) {
        try {
            return JSON.readTree(PageGet.text(http, url().resolve(path), Duration.ofSeconds(10), 2));
        } catch (IOException e) {
            throw new IllegalStateException(name + " answered GET " + path + " with no JSON", e);
        }
    }

    boolean alive() {
        ChildJvm p = process;
        return p != null && p.isAlive();
    }

    void freeze() {
        process.suspend();
    }

    void thaw() {
        process.resume();
    }

    void kill() {
        process.kill();
    }

    /** SIGTERM: it releases its lease and leaves the group. */
    void stop() {
        process.stop(Duration.ofSeconds(30));
    }

    @Override
    public void close() {
        ChildJvm p = process;
        if (p != null && p.isAlive()) {
            p.resume();
            p.stop(Duration.ofSeconds(30));
        }
        kafka.close();
        connect.close();
    }
}
