package io.kcscale.scaler.api;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

import io.kcscale.scaler.service.ScalerService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The scaler's HTTP API on the JDK's server: one router for every route group. A request must arrive
 * whole within {@link #REQUEST_SECONDS}, or its connection is closed; {@link RequestThreads} keeps
 * threads free for status, metrics and the page while slow clients hold some, and sheds load with 503
 * when all are taken; {@link SlowWork} keeps key samples and scales to a few of those threads.
 */
public final class ApiServer implements AutoCloseable {

    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    /** Longest time from a request's first byte to its last; a client on any working link sends a few kB in far less. */
    public static final int REQUEST_SECONDS = 10;
    /** Exchanges handled at once: more than the 50 stalled clients the reliability tests hold open. */
    static final int THREADS = 64;
    static final int QUEUE = 16;
    /** Requests that wait on Kafka or Connect for seconds (checks, scales) at once. */
    static final int SLOW_WORK = 8;
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";
    private static final String MAX_REQUEST_TIME = "sun.net.httpserver.maxReqTime";
    /** How long a stop waits for requests in flight; predictions answer in milliseconds. */
    private static final long STOP_GRACE_MILLIS = 2_000;

    static {
        // The JDK server reads these once, when the first server of the JVM is created. Without a nodelay it
        // sends headers and body in separate writes: with Nagle's algorithm and the client's delayed ACK, every
        // keep-alive response would wait 40 ms. Without a maximum request time, a client that stops sending
        // holds its thread for ever.
        if (System.getProperty(NO_DELAY) == null) {
            System.setProperty(NO_DELAY, "true");
        }
        if (System.getProperty(MAX_REQUEST_TIME) == null) {
            System.setProperty(MAX_REQUEST_TIME, Integer.toString(REQUEST_SECONDS));
        }
    }

    private final HttpServer server;
    private final RequestThreads threads;
    private final Router router;
    private final InFlight inFlight = new InFlight();
    private final CountDownLatch closed = new CountDownLatch(1);

    private ApiServer(InetSocketAddress address, ApiAccess access, List<Routes> groups, RequestThreads threads) throws IOException {
        server = HttpServer.create(address, 0);
        // bound first: with port 0 the guard needs the port that was picked
        router = new Router(new RequestGuard(access, server.getAddress().getPort()), new SlowWork(SLOW_WORK));
        groups.forEach(group -> group.register(router));
        server.createContext("/", router).getFilters().add(inFlight);
        this.threads = threads;
        server.setExecutor(threads);
    }

    /** Starts the API unconnected to any pipeline: predictions work, connector routes answer 503. */
    public static ApiServer start(InetSocketAddress address) throws IOException {
        return start(address, Optional.empty());
    }

    /** Starts the API with every route group, for its own page and plain HTTP clients; port 0 picks a free port. */
    public static ApiServer start(InetSocketAddress address, Optional<ScalerService> service) throws IOException {
        return start(address, service, ApiAccess.OWN);
    }

    /** Starts the API with every route group, also for the origins and host names {@code access} allows. */
    public static ApiServer start(InetSocketAddress address, Optional<ScalerService> service, ApiAccess access) throws IOException {
        return start(address, service, access, new RequestThreads(THREADS, QUEUE));
    }

    /** With the request threads given, fewer than usual in tests of what happens when all are taken. */
    static ApiServer start(InetSocketAddress address, Optional<ScalerService> service, ApiAccess access, RequestThreads threads)
            throws IOException {
        ApiServer api = new ApiServer(address, access, List.of(new PredictRoutes(), new ConnectorRoutes(service), new CheckRoutes(service), new AutoscaleRoutes(service), new InstanceRoutes(service),
                new MetricsRoutes(service), new HealthRoutes(), new OpenApiRoutes(), new WebRoutes()), threads);
        api.server.start();
        return api;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    public Router router() {
        return router;
    }

    /** Blocks until {@link #close()} has run. */
    public void awaitClosed() throws InterruptedException {
        closed.await();
    }

    /** Lets requests in flight finish (for a bounded time), then stops listening. */
    @Override
    public void close() {
        try {
            inFlight.awaitIdle(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            server.stop(0);
            threads.shutdown();
            closed.countDown();
        }
    }
}
