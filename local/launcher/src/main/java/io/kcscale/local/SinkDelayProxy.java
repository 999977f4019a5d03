package io.kcscale.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An HTTP forwarder in front of Elasticsearch that holds every request for a fixed delay: a sink on
 * loopback then pays a remote cluster's round trip (the field report measured 14 ms per request), so
 * one per-record task writes ~1/delay documents/s and four times that load stays within what a
 * 2-core machine sustains. Requests are forwarded as they are; each waits on its own thread, so
 * concurrent tasks do not queue behind each other. With a serial time, each request then also holds one
 * shared lock for that long, one at a time, as every write waits its turn at one hot shard: tasks queue
 * there, and throughput bends towards 1 / serial time as tasks are added (the Universal Scalability
 * Law's contention, not a straight line). {@code up --sink-latency-ms} runs it as a component of its own
 * ({@link #main}), so it outlives a detached {@code up}; it needs nothing beyond the JDK.
 */
public final class SinkDelayProxy implements AutoCloseable {

    /** Its component name in the stack. */
    public static final String NAME = "sink-proxy";
    /** The most a request may be held: a remote cluster is far, not gone. */
    public static final int MAX_DELAY_MILLIS = 1000;

    /** Headers the JDK client sets itself or that belong to one hop only. */
    private static final Set<String> HOP_HEADERS =
            Set.of("connection", "content-length", "host", "expect", "upgrade", "transfer-encoding", "keep-alive");

    private static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(30);

    static {
        // without it Nagle's algorithm meets delayed ACKs: ~40 ms stalls per response, far above the delay itself
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "kcscale-sink-delay");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final URI target;
    private final Duration delay;
    private final Duration serial;
    /** Fair, so that requests take the contended resource in arrival order, as a queue would. */
    private final ReentrantLock shared = new ReentrantLock(true);

    private SinkDelayProxy(URI target, Duration delay, Duration serial, int port) throws IOException {
        this.target = target;
        this.delay = delay;
        this.serial = serial;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    /**
     * Listens on loopback {@code port} (0: a free one) and forwards to {@code target} after {@code delay}, then
     * {@code serial} under the shared lock.
     */
    public static SinkDelayProxy start(URI target, Duration delay, Duration serial, int port) {
        if (delay.isNegative() || delay.toMillis() > MAX_DELAY_MILLIS) {
            throw new IllegalArgumentException(
                    "--sink-latency-ms must be from 0 to " + MAX_DELAY_MILLIS + ", got " + delay.toMillis());
        }
        if (serial.isNegative() || serial.toMillis() > MAX_DELAY_MILLIS) {
            throw new IllegalArgumentException(
                    "--sink-serial-ms must be from 0 to " + MAX_DELAY_MILLIS + ", got " + serial.toMillis());
        }
        try {
            return new SinkDelayProxy(target, delay, serial, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the sink delay proxy on port " + port, e);
        }
    }

    /** As a component of the stack: {@code TARGET_URL DELAY_MILLIS SERIAL_MILLIS PORT}; runs until the process is stopped. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: SinkDelayProxy TARGET_URL DELAY_MILLIS SERIAL_MILLIS PORT");
            System.exit(2);
        }
        SinkDelayProxy proxy = start(
                URI.create(args[0]),
                Duration.ofMillis(Long.parseLong(args[1])),
                Duration.ofMillis(Long.parseLong(args[2])),
                Integer.parseInt(args[3]));
        System.out.println("holding every request " + proxy.delay().toMillis() + " ms, then " + proxy.serial.toMillis()
                + " ms under one shared lock, at " + proxy.hostPort() + " before " + args[0]);
        Thread.currentThread().join();
    }

    /** {@code host:port} to give the sink instead of Elasticsearch's. */
    public String hostPort() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    public Duration delay() {
        return delay;
    }

    private void forward(HttpExchange exchange) throws IOException {
        try {
            relay(exchange);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(503, -1);
        } catch (IOException e) {
            // Elasticsearch did not answer: the sink sees what an unreachable cluster gives it
            exchange.sendResponseHeaders(502, -1);
        } finally {
            exchange.close();
        }
    }

    private void relay(HttpExchange exchange) throws IOException, InterruptedException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Thread.sleep(delay.toMillis());
        if (!serial.isZero()) {
            shared.lockInterruptibly();
            try {
                Thread.sleep(serial.toMillis());
            } finally {
                shared.unlock();
            }
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        target.resolve(exchange.getRequestURI().toString()))
                .timeout(FORWARD_TIMEOUT)
                .method(
                        exchange.getRequestMethod(),
                        body.length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> request.header(name, v));
            }
        });
        HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        response.headers().map().forEach((name, values) -> {
            if (!HOP_HEADERS.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                exchange.getResponseHeaders().put(name, List.copyOf(values));
            }
        });
        byte[] answer = response.body();
        boolean empty = answer.length == 0 || exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(response.statusCode(), empty ? -1 : answer.length);
        if (!empty) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
