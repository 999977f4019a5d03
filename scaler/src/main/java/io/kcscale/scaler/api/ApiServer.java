package io.kcscale.scaler.api;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

import io.kcscale.scaler.service.ScalerService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The scaler's HTTP API on the JDK's server: one router for every route group, a small worker pool. */
public final class ApiServer implements AutoCloseable {

    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    private static final int WORKERS = 4;
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";
    /** How long a stop waits for requests in flight; predictions answer in milliseconds. */
    private static final long STOP_GRACE_MILLIS = 2_000;

    static {
        // the JDK server sends headers and body in separate writes: with Nagle's algorithm and the client's
        // delayed ACK, every keep-alive response would wait 40 ms. Read once, when the first server starts.
        if (System.getProperty(NO_DELAY) == null) {
            System.setProperty(NO_DELAY, "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService workers;
    private final Router router;
    private final InFlight inFlight = new InFlight();
    private final CountDownLatch closed = new CountDownLatch(1);

    private ApiServer(InetSocketAddress address, ApiAccess access, List<Routes> groups) throws IOException {
        server = HttpServer.create(address, 0);
        // bound first: with port 0 the guard needs the port that was picked
        router = new Router(new RequestGuard(access, server.getAddress().getPort()));
        groups.forEach(group -> group.register(router));
        server.createContext("/", router).getFilters().add(inFlight);
        AtomicInteger threads = new AtomicInteger();
        workers = Executors.newFixedThreadPool(WORKERS, task -> {
            Thread thread = new Thread(task, "kcscale-api-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(workers);
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
        ApiServer api = new ApiServer(address, access, List.of(new PredictRoutes(), new ConnectorRoutes(service), new CheckRoutes(service), new AutoscaleRoutes(service),
                new MetricsRoutes(service), new HealthRoutes(), new OpenApiRoutes(), new WebRoutes()));
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
            workers.shutdown();
            closed.countDown();
        }
    }
}
