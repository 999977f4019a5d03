package io.kcscale.local;

import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The real pipeline on this machine: a KRaft broker, an Elasticsearch node and W Connect workers,
 * each its own JVM, started in order with readiness checks; then topic, index and both connectors.
 * Used by {@code ./kcscale up} and by the end-to-end tests alike. This class keeps the order of the
 * steps; {@link StackPorts}, {@link ComponentStarter}, {@link Readiness}, {@link PipelineSetup} and
 * {@link StackState} do them.
 */
public final class LocalStack implements AutoCloseable {

    private final StackOptions options;
    private final InstallLayout layout;
    private final PipelineTemplates templates;
    private final Path dataDir;
    private final RunningComponents components = new RunningComponents();
    private final Consumer<String> progress;
    // known once the ports are, early in start()
    private StackEndpoints endpoints;
    private ComponentStarter starter;
    private Readiness readiness;

    private LocalStack(StackOptions options, Consumer<String> progress) {
        this.options = options;
        this.layout = new InstallLayout(options.home());
        this.templates = new PipelineTemplates(layout);
        this.dataDir = options.dataDir().toAbsolutePath().normalize();
        this.progress = progress;
    }

    /**
     * Starts the whole stack; on any failure stops what it had started and throws with the failing
     * component's last log lines, so nothing is left half-up.
     *
     * @throws IllegalStateException when a stack already runs from the same data directory
     * @throws IllegalArgumentException when a requested port is taken
     */
    public static LocalStack start(StackOptions options, Consumer<String> progress) {
        LocalStack stack = new LocalStack(options, progress);
        stack.layout.requireBuilt();
        List<ChildJvm> running = StackState.runningComponents(stack.dataDir);
        if (!running.isEmpty()) {
            throw new IllegalStateException("a stack already runs from " + stack.dataDir + " (pids "
                    + running.stream().map(c -> c.name() + "=" + c.pid()).collect(Collectors.joining(", "))
                    + "); nothing was changed. `./kcscale down` stops it.");
        }
        try {
            stack.startAll();
            return stack;
        } catch (RuntimeException | Error e) {
            // an Error too (a class gone missing under a rebuild): children must never outlive a failed start
            stack.stop();
            throw e;
        }
    }

    /** Stops the stack recorded in {@code dataDir} (what {@code ./kcscale down} does); false if none ran. */
    public static boolean stopRecorded(Path dataDir, Consumer<String> progress) {
        Path dir = dataDir.toAbsolutePath().normalize();
        List<ChildJvm> running = StackState.runningComponents(dir);
        RunningComponents.stopInOrder(running, progress);
        StackState.delete(dir);
        return !running.isEmpty();
    }

    /** The endpoints recorded for a stack that runs from {@code dataDir}, if one does. */
    public static Optional<StackEndpoints> recordedEndpoints(Path dataDir) {
        Path dir = dataDir.toAbsolutePath().normalize();
        return StackState.runningComponents(dir).isEmpty() ? Optional.empty() : StackState.endpoints(dir);
    }

    public StackEndpoints endpoints() {
        return endpoints;
    }

    public StackOptions options() {
        return options;
    }

    /** A component by name: {@code kafka}, {@code elasticsearch}, {@code connect-0}, {@code connect-1}, ..., {@code sink-proxy} */
    public ChildJvm component(String name) {
        return components.named(name);
    }

    /**
     * Starts a component again after a test stopped or killed it (a worker rejoins its group,
     * Elasticsearch reopens its data, the broker its logs, the scaler reloads its autoscale policies), and
     * waits until it is ready. A component still running is stopped gracefully first.
     */
    public ChildJvm restart(String name) {
        components.stopAndForget(component(name));
        ChildJvm started;
        if (name.equals("kafka")) {
            started = record(starter.kafka(options.kafkaProxiedListeners()));
            readiness.kafka(started);
        } else if (name.equals("elasticsearch")) {
            started = record(starter.elasticsearch());
            readiness.elasticsearch(started);
        } else if (name.startsWith("connect-")) {
            int index = Integer.parseInt(name.substring("connect-".length()));
            started = record(starter.worker(index, options.commitIntervalMs()));
            readiness.worker(started, endpoints.connectUrls().get(index));
        } else if (name.equals(SinkDelayProxy.NAME) && options.sinkLatencyMs() > 0) {
            started = record(starter.sinkProxy(options.sinkLatencyMs(), options.sinkSerialMs()));
            readiness.sinkProxy(started);
        } else if (name.equals("scaler")) {
            started = record(starter.scaler());
            readiness.scaler(started);
        } else {
            throw new IllegalArgumentException(
                    "only kafka, elasticsearch, connect-N, the scaler and (with a sink latency) " + SinkDelayProxy.NAME
                            + " can be restarted, not " + name);
        }
        StackState.write(dataDir, endpoints, components.list());
        return started;
    }

    /**
     * Starts a scaler of the caller's own beside the stack's ({@link ComponentStarter#scaler(String, int, URI, String,
     * Path, List)}) in place of a stopped one of that name; the caller waits for it. It is recorded with the stack, so
     * that stopping the stack (or {@code down} after a Ctrl-C) stops it too.
     */
    public synchronized ChildJvm startScaler(
            String name, int port, URI connectUrl, String kafkaBootstrap, List<String> args) {
        components.list().stream().filter(c -> c.name().equals(name)).forEach(components::stopAndForget);
        return record(starter.scaler(name, port, connectUrl, kafkaBootstrap, dataDir.resolve(name), args));
    }

    /** Stops every component, the scaler and then the workers first (they commit to the broker), and forgets the stack. */
    public void stop() {
        components.stopAll(progress);
        StackState.delete(dataDir);
    }

    @Override
    public void close() {
        stop();
    }

    /** A connector configuration from {@code configs/connectors/}, filled in. */
    public Map<String, String> connectorConfig(String file, Map<String, String> values) {
        return templates.connectorConfig(file, values);
    }

    /** Creates index {@code name} like {@code stocks} with {@code shards} primaries: benchmarks and experiments give each run an index of its own. */
    public void createIndex(ElasticsearchConnection elasticsearch, String name, int shards) {
        PipelineSetup.createIndex(elasticsearch, name, templates.indexDefinition(shards));
    }

    private void startAll() {
        Optional<Path> prometheusBinary = ComponentStarter.requireMetricsTools(options, layout);
        StackPorts ports = StackPorts.resolve(options);
        // only once every port is known to be free: a refused start must not have wiped anything
        if (options.fresh()) {
            deleteRecursively(dataDir);
        }
        endpoints = ports.endpoints(dataDir);
        starter = new ComponentStarter(layout, ports, endpoints, progress);
        readiness = new Readiness(endpoints, progress);
        PipelineSetup pipeline = new PipelineSetup(options, templates, endpoints, progress);

        ChildJvm kafka = record(starter.kafka(options.kafkaProxiedListeners()));
        ChildJvm elasticsearch = record(starter.elasticsearch());
        readiness.kafka(kafka);
        List<ChildJvm> workers = new ArrayList<>();
        for (int i = 0; i < options.workers(); i++) {
            workers.add(record(starter.worker(i, options.commitIntervalMs())));
        }
        pipeline.createTopic();
        readiness.elasticsearch(elasticsearch);
        pipeline.createIndex();
        if (options.sinkLatencyMs() > 0) {
            readiness.sinkProxy(record(starter.sinkProxy(options.sinkLatencyMs(), options.sinkSerialMs())));
        }
        for (int i = 0; i < workers.size(); i++) {
            readiness.worker(workers.get(i), endpoints.connectUrls().get(i));
        }
        pipeline.createConnectors();
        if (options.scaler()) {
            readiness.scaler(record(starter.scaler()));
        }
        prometheusBinary.ifPresent(binary -> readiness.prometheus(record(starter.prometheus(binary))));
        StackState.write(dataDir, endpoints, components.list());
    }

    /** Adds a started child to the state file at once, so `down` finds it even if this launcher dies mid-start. */
    private ChildJvm record(ChildJvm child) {
        components.add(child);
        StackState.write(dataDir, endpoints, components.list());
        return child;
    }

    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot wipe " + dir, e);
        }
    }
}
