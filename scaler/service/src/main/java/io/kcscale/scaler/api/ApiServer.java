package io.kcscale.scaler.api;

import io.kcscale.scaler.service.Scaler;
import io.kcscale.scaler.service.ScalerService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.ExecutorThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scaler's HTTP API on Jetty: every route group in one {@link RouteTable}. A client silent for
 * {@link #REQUEST_SECONDS} mid-request is cut off (Jetty's idle timeout), and so is a body that has not arrived
 * whole by then ({@link Call#body()}); {@link Admission} keeps places free for status, metrics and the page while
 * slow clients hold some, and sheds load with 503 when all are taken; {@link SlowWork} keeps checks, scales and
 * predictions each to a few of those places, with permits of their own.
 */
public final class ApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);

    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    /** Longest silence mid-request, and longest time from a request's first byte to its body's last; a client on any working link sends a few kB in far less. */
    public static final int REQUEST_SECONDS = 10;
    /** Requests handled at once: more than the 50 stalled clients the reliability tests hold open. */
    static final int REQUESTS = 64;
    /** Requests that wait for one of those places. */
    static final int WAITING = 16;
    /** Checks at once: each waits on Kafka for its key sample, up to a minute. */
    static final int CHECKS = 8;
    /** Scales at once, apart from the checks' permits: a token holder's scale is never refused for want of one a check holds. */
    static final int SCALES = 4;
    /** Request line and headers: the API's own clients send a few hundred bytes, a browser a few kB with its cookies. */
    static final int HEADER_BYTES = 16 * 1024;
    /** Threads beyond one per request handled: Jetty's acceptor and selector, and a spare. */
    private static final int SERVER_THREADS = 4;
    /**
     * Open connections. Bounds Jetty's task queue too (a connection has one task at a time), which Jetty itself
     * does not bound: it warns on every start against a bounded queue. At the limit Jetty stops accepting until
     * one closes; an idle one closes after {@link #REQUEST_SECONDS}.
     */
    static final int CONNECTIONS = 1024;
    /** How long a stop waits for requests in flight; predictions answer in milliseconds. */
    private static final long STOP_GRACE_MILLIS = 2_000;

    /** How much the server takes at once; smaller in tests of what happens past each limit. */
    record Capacity(int requests, int waiting, int connections) {
        static final Capacity DEFAULT = new Capacity(REQUESTS, WAITING, CONNECTIONS);
    }

    private final Server server;
    private final GracefulHandler inFlight;
    private final InetSocketAddress address;
    private final RouteTable routes = new RouteTable(new SlowWork("checks", CHECKS), new SlowWork("scales", SCALES));

    private ApiServer(InetSocketAddress bind, List<Routes> groups, ApiAccess access, Capacity capacity)
            throws IOException {
        // not Jetty's QueuedThreadPool: its stop looks up a logger for tasks still queued, which during the JVM's
        // shutdown races Log4j's own shutdown hook and prints a warning on serve's output
        ExecutorThreadPool threads = new ExecutorThreadPool(capacity.requests() + SERVER_THREADS, SERVER_THREADS);
        threads.setName("kcscale-api");
        threads.setDaemon(true);
        threads.setReservedThreads(0);
        server = new Server(threads);
        server.addBean(new ScheduledExecutorScheduler("kcscale-api-timer", true));
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(HEADER_BYTES);
        // routes decode each raw path segment once themselves (RouteTable.match) and never read Jetty's
        // decoded path, so Jetty's refusals of encoded '/', '%' or '.' would only refuse valid connector names
        http.setUriCompliance(UriCompliance.UNSAFE);
        // RequestGuard answers a Host that names no host with 421 and says what to call the scaler by
        http.setHttpCompliance(
                HttpCompliance.RFC9110.with("RFC9110 with any Host", HttpCompliance.Violation.UNSAFE_HOST_HEADER));
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(
                bind.getAddress() == null
                        ? bind.getHostString()
                        : bind.getAddress().getHostAddress());
        connector.setPort(bind.getPort());
        connector.setIdleTimeout(REQUEST_SECONDS * 1000L);
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(capacity.connections(), connector));
        // bound first: with port 0 the guard needs the port that was picked
        try {
            connector.open();
        } catch (IOException e) {
            // Jetty wraps the socket's own reason ("Address already in use") in one naming the address
            throw e.getCause() instanceof IOException reason ? reason : e;
        }
        address = (InetSocketAddress) ((ServerSocketChannel) connector.getTransport()).getLocalAddress();
        groups.forEach(group -> group.register(routes));
        inFlight = new GracefulHandler(new Admission(
                capacity.requests(),
                capacity.waiting(),
                new ApiHandler(new RequestGuard(access, address.getPort()), routes)));
        server.setHandler(inFlight);
        server.setErrorHandler(new JsonErrors());
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
    public static ApiServer start(InetSocketAddress address, Optional<ScalerService> service, ApiAccess access)
            throws IOException {
        return start(address, service, access, Capacity.DEFAULT);
    }

    /** With less capacity than usual, in tests of what happens when all is taken. */
    static ApiServer start(
            InetSocketAddress address, Optional<ScalerService> service, ApiAccess access, Capacity capacity)
            throws IOException {
        Optional<Scaler> scaler = service.map(ScalerService::scaler);
        ApiServer api = new ApiServer(
                address,
                List.of(
                        new PredictRoutes(scaler),
                        new ConnectorRoutes(scaler),
                        new CheckRoutes(scaler),
                        new AutoscaleRoutes(scaler),
                        new InstanceRoutes(scaler),
                        new MetricsRoutes(scaler),
                        new HealthRoutes(),
                        new OpenApiRoutes(),
                        new WebRoutes()),
                access,
                capacity);
        try {
            api.server.start();
        } catch (Exception e) {
            api.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        return api;
    }

    public InetSocketAddress address() {
        return address;
    }

    /** Every registered path with its methods, e.g. to check them against the OpenAPI document. */
    public Map<String, Set<String>> routes() {
        return routes.paths();
    }

    /** Blocks until {@link #close()} has run. */
    public void awaitClosed() throws InterruptedException {
        server.join();
    }

    /**
     * Lets requests in flight finish (for a bounded time, and no longer than they take), then stops. Not through
     * Server's own stop timeout: that looks up a logger while the JVM shuts down, racing Log4j's shutdown hook,
     * which then warns on stderr.
     */
    @Override
    public void close() {
        try {
            inFlight.shutdown().get(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException stillRunning) {
            // cut off by the stop below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("the API server did not stop cleanly", e);
        }
    }
}
