package io.kcscale.local;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.elasticsearch.client.Request;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.kafka.KafkaObserver;
import io.kcscale.scaler.poll.Poll;

/**
 * The real pipeline on this machine: a KRaft broker, an Elasticsearch node and W Connect workers,
 * each its own JVM, started in order with readiness checks; then topic, index and both connectors.
 * Used by {@code ./kcscale up} and by the end-to-end tests alike.
 */
public final class LocalStack implements AutoCloseable {

    public static final String SINK_CONNECTOR_CLASS = "org.apache.camel.kafkaconnector.CamelSinkConnector";
    public static final String SOURCE_CONNECTOR_CLASS = "io.kcscale.connectors.datagen.DatagenConnector";
    private static final String HOST = "127.0.0.1";
    // runs on its own classpath (local/elasticsearch-node), so named, not imported
    private static final String ELASTICSEARCH_MAIN = "io.kcscale.local.elasticsearch.ElasticsearchNodeMain";
    private static final String SCALER_MAIN = "io.kcscale.scaler.cli.KcscaleCommand";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final StackOptions options;
    private final InstallLayout layout;
    private final Path dataDir;
    private final List<ChildJvm> children = Collections.synchronizedList(new ArrayList<>());
    private final Consumer<String> progress;
    private StackEndpoints endpoints;
    private int elasticsearchTransportPort;

    private LocalStack(StackOptions options, Consumer<String> progress) {
        this.options = options;
        this.layout = new InstallLayout(options.home());
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
        stopInOrder(running, progress);
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

    /** A component by name: {@code kafka}, {@code elasticsearch}, {@code connect-0}, {@code connect-1}, ... */
    public ChildJvm component(String name) {
        synchronized (children) {
            return children.stream().filter(c -> c.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no component " + name));
        }
    }

    /**
     * Starts a component again after a test stopped or killed it (a worker rejoins its group,
     * Elasticsearch reopens its data, the scaler reloads its autoscale policies), and waits until it is ready.
     */
    public ChildJvm restart(String name) {
        ChildJvm old = component(name);
        old.stop(STOP_GRACE);
        children.remove(old);
        ChildJvm started;
        if (name.equals("elasticsearch")) {
            started = startElasticsearch();
            awaitElasticsearch(started);
        } else if (name.startsWith("connect-")) {
            int index = Integer.parseInt(name.substring("connect-".length()));
            started = startWorker(index, endpoints.connectUrls().get(index).getPort());
            awaitWorker(started, endpoints.connectUrls().get(index));
        } else if (name.equals("scaler")) {
            started = startScaler(endpoints.scalerUrl().getPort());
            awaitScaler(started);
        } else {
            throw new IllegalArgumentException("only elasticsearch, connect-N and scaler can be restarted, not " + name);
        }
        StackState.write(dataDir, endpoints, children);
        return started;
    }

    /** Stops every component, the scaler and then the workers first (they commit to the broker), and forgets the stack. */
    public void stop() {
        List<ChildJvm> all;
        synchronized (children) {
            all = new ArrayList<>(children);
            children.clear();
        }
        stopInOrder(all, progress);
        StackState.delete(dataDir);
    }

    @Override
    public void close() {
        stop();
    }

    private static void stopInOrder(List<ChildJvm> components, Consumer<String> progress) {
        List<ChildJvm> ordered = new ArrayList<>(components);
        // observers first: Prometheus and the scaler would only log the others going away
        ordered.sort(Comparator.comparingInt(c -> c.name().equals("scaler") || c.name().equals(LocalPrometheus.NAME) ? 0
                : c.name().startsWith("connect") ? 1
                : c.name().equals("elasticsearch") ? 2 : 3));
        for (ChildJvm c : ordered) {
            if (c.isAlive()) {
                progress.accept("stopping " + c.name() + " (pid " + c.pid() + ")");
                c.stop(STOP_GRACE);
            }
        }
    }

    private void startAll() {
        Optional<Path> prometheusBinary = requireMetricsTools();
        Ports ports = new Ports();
        int kafkaPort;
        int controllerPort;
        int esPort;
        int esTransportPort;
        int scalerPort;
        List<Integer> connectPorts = new ArrayList<>();
        List<Integer> metricsPorts = new ArrayList<>();
        Integer prometheusPort = null;
        try {
            kafkaPort = ports.resolve(options.kafkaPort(), "Kafka", "--kafka-port");
            controllerPort = ports.resolve(options.controllerPort(), "Kafka controller", "--controller-port");
            esPort = ports.resolve(options.elasticsearchPort(), "Elasticsearch HTTP", "--elasticsearch-port");
            esTransportPort = ports.resolve(options.elasticsearchTransportPort(), "Elasticsearch transport",
                    "--elasticsearch-transport-port");
            scalerPort = ports.resolve(options.scalerPort(), "scaler", "--scaler-port");
            for (int i = 0; i < options.workers(); i++) {
                connectPorts.add(ports.resolve(options.connectPort() == 0 ? 0 : options.connectPort() + i,
                        "Connect worker " + i, "--connect-port"));
            }
            for (int i = 0; options.metrics().exporter() && i < options.workers(); i++) {
                int first = options.metrics().exporterPort();
                metricsPorts.add(ports.resolve(first == 0 ? 0 : first + i, "JMX exporter of worker " + i, "--metrics-port"));
            }
            if (options.metrics().prometheus()) {
                prometheusPort = ports.resolve(options.metrics().prometheusPort(), "Prometheus", "--prometheus-port");
            }
        } finally {
            ports.release();
        }
        // only once every port is known to be free: a refused start must not have wiped anything
        if (options.fresh()) {
            deleteRecursively(dataDir);
        }
        endpoints = new StackEndpoints(HOST + ":" + kafkaPort,
                connectPorts.stream().map(p -> URI.create("http://" + HOST + ":" + p)).toList(),
                URI.create("http://" + HOST + ":" + esPort), URI.create("http://" + HOST + ":" + scalerPort), dataDir,
                metricsPorts.stream().map(p -> URI.create("http://" + HOST + ":" + p + "/metrics")).toList(),
                prometheusPort == null ? null : URI.create("http://" + HOST + ":" + prometheusPort));

        ChildJvm kafka = startKafka(kafkaPort, controllerPort);
        this.elasticsearchTransportPort = esTransportPort;
        ChildJvm elasticsearch = startElasticsearch();
        awaitKafka(kafka);
        List<ChildJvm> workers = new ArrayList<>();
        for (int i = 0; i < options.workers(); i++) {
            workers.add(startWorker(i, connectPorts.get(i)));
        }
        createTopic();
        awaitElasticsearch(elasticsearch);
        createIndex();
        for (int i = 0; i < workers.size(); i++) {
            awaitWorker(workers.get(i), endpoints.connectUrls().get(i));
        }
        createConnectors();
        awaitScaler(startScaler(scalerPort));
        prometheusBinary.ifPresent(this::startPrometheus);
        StackState.write(dataDir, endpoints, children);
    }

    /** The prometheus program when asked for; checked before anything starts, like the agent jar. */
    private Optional<Path> requireMetricsTools() {
        if (options.metrics().exporter() && !Files.isRegularFile(layout.jmxExporterAgent())) {
            throw new IllegalStateException("--metrics needs the JMX exporter agent at " + layout.jmxExporterAgent()
                    + ": run `./kcscale build`");
        }
        if (!options.metrics().prometheus()) {
            return Optional.empty();
        }
        return Optional.of(LocalPrometheus.binary().orElseThrow(() -> new IllegalStateException(
                "--prometheus needs the prometheus program on the PATH (Debian: apt-get install prometheus);"
                        + " or run the compose stack (compose/docker-compose.yml)")));
    }

    private void startPrometheus(Path binary) {
        progress.accept("starting prometheus on " + endpoints.prometheusUrl());
        ChildJvm prometheus = record(LocalPrometheus.start(binary, layout, endpoints, logFile(LocalPrometheus.NAME)));
        awaitOk(prometheus, "Prometheus to be ready", endpoints.prometheusUrl().resolve("/-/ready"), Duration.ofSeconds(60));
    }

    /** The scaler service, observing this stack: the same {@code serve} verb a user runs against any pipeline. */
    private ChildJvm startScaler(int port) {
        progress.accept("starting the scaler on " + endpoints.scalerUrl());
        return record(ChildJvm.start("scaler", layout.scalerClasspath(), List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"),
                SCALER_MAIN, List.of("serve", "--port", String.valueOf(port),
                        "--connect-url", endpoints.connectUrl().toString(),
                        "--bootstrap-servers", endpoints.kafkaBootstrap(),
                        "--elasticsearch-url", endpoints.elasticsearchUrl().toString(),
                        "--state-dir", dataDir.resolve("scaler").toString()),
                logFile("scaler")));
    }

    private void awaitScaler(ChildJvm scaler) {
        awaitOk(scaler, "the scaler to observe " + StackOptions.SINK_CONNECTOR,
                endpoints.scalerUrl().resolve("/api/v1/connectors/" + StackOptions.SINK_CONNECTOR), Duration.ofSeconds(60));
    }

    /** Polls {@code url} until it answers 200, while {@code component} lives. */
    private void awaitOk(ChildJvm component, String what, URI url, Duration timeout) {
        HttpClient http = HttpClient.newHttpClient();
        await(component, what, timeout, () -> {
            try {
                int status = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status != 200) {
                    throw new IllegalStateException("GET " + url + " -> " + status);
                }
                return Optional.of(status);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Poll.Abort("interrupted");
            }
        });
    }

    private ChildJvm startElasticsearch() {
        return record(ChildJvm.start("elasticsearch", layout.elasticsearchClasspath(),
                List.of("-Xms512m", "-Xmx512m", "-XX:+ExitOnOutOfMemoryError"), ELASTICSEARCH_MAIN,
                List.of(dataDir.resolve("elasticsearch").toString(), String.valueOf(endpoints.elasticsearchUrl().getPort()),
                        String.valueOf(elasticsearchTransportPort)),
                logFile("elasticsearch")));
    }

    private ChildJvm startKafka(int kafkaPort, int controllerPort) {
        Path logDir = dataDir.resolve("kafka");
        Path config = writeConfig("broker.properties", "kafka/broker.properties", Map.of(
                "KAFKA_HOST", HOST, "KAFKA_PORT", String.valueOf(kafkaPort),
                "CONTROLLER_PORT", String.valueOf(controllerPort), "KAFKA_LOG_DIR", logDir.toString()));
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            progress.accept("formatting Kafka storage in " + logDir);
            ChildJvm format = ChildJvm.start("kafka-format", layout.kafkaClasspath(), kafkaJvmOptions("256m"),
                    "kafka.tools.StorageTool",
                    List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()),
                    logFile("kafka-format"));
            Poll.untilTrue("Kafka storage format to finish", Duration.ofSeconds(60), Duration.ofMillis(100),
                    () -> !format.isAlive(), () -> "still formatting");
            if (!Files.exists(logDir.resolve("meta.properties"))) {
                throw new StackStartException("formatting Kafka storage failed:\n" + format.logTail(20), null);
            }
        }
        progress.accept("starting kafka on " + endpoints.kafkaBootstrap());
        return record(ChildJvm.start("kafka", layout.kafkaClasspath(), kafkaJvmOptions("512m"), "kafka.Kafka",
                List.of(config.toString()), logFile("kafka")));
    }

    private ChildJvm startWorker(int index, int port) {
        Path config = writeConfig("connect-" + index + ".properties", "connect/worker.properties", Map.of(
                "KAFKA_BOOTSTRAP", endpoints.kafkaBootstrap(), "CONNECT_HOST", HOST,
                "CONNECT_PORT", String.valueOf(port),
                "PLUGIN_PATH", layout.pluginPath().stream().map(Path::toString).collect(Collectors.joining(","))));
        progress.accept("starting " + workerName(index) + " on http://" + HOST + ":" + port);
        List<String> jvm = new ArrayList<>(kafkaJvmOptions("1g"));
        if (!endpoints.metricsUrls().isEmpty()) {
            // the same agent and rules as the compose stack's connect image
            jvm.add("-javaagent:" + layout.jmxExporterAgent() + "=" + HOST + ":" + endpoints.metricsUrls().get(index).getPort()
                    + ":" + layout.jmxExporterConfig());
        }
        jvm.addAll(extraWorkerJvmOptions());
        return record(ChildJvm.start(workerName(index), layout.kafkaClasspath(), jvm,
                "org.apache.kafka.connect.cli.ConnectDistributed", List.of(config.toString()), logFile(workerName(index))));
    }

    /** {@code KCSCALE_WORKER_JAVA_OPTS}: extra JVM options for workers (say, a profiler; {@code --metrics} attaches the JMX exporter). */
    private static List<String> extraWorkerJvmOptions() {
        String extra = System.getenv("KCSCALE_WORKER_JAVA_OPTS");
        return extra == null || extra.isBlank() ? List.of() : List.of(extra.trim().split("\\s+"));
    }

    private List<String> kafkaJvmOptions(String heap) {
        return List.of("-Xms256m", "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + layout.configs().resolve("kafka/log4j2.properties"));
    }

    private void awaitKafka(ChildJvm kafka) {
        try (KafkaObserver admin = new KafkaObserver(endpoints.kafkaBootstrap(), Map.of(), Duration.ofSeconds(5))) {
            await(kafka, "Kafka to accept clients", Duration.ofSeconds(90), () -> {
                try {
                    return Optional.of(admin.admin().describeCluster().nodes().get().size());
                } catch (InterruptedException | ExecutionException e) {
                    throw new IllegalStateException(e.getMessage());
                }
            });
        }
    }

    private void awaitElasticsearch(ChildJvm elasticsearch) {
        try (ElasticsearchConnection es = new ElasticsearchConnection(endpoints.elasticsearchUrl(), 5000)) {
            await(elasticsearch, "Elasticsearch to answer", Duration.ofSeconds(120), () -> {
                try {
                    return es.client().ping().value() ? Optional.of(true) : Optional.empty();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitWorker(ChildJvm worker, URI url) {
        ConnectRestClient connect = new ConnectRestClient(url);
        await(worker, worker.name() + " to offer the datagen and Camel plugins", Duration.ofSeconds(180), () -> {
            List<String> plugins = connect.connectorPlugins();
            return plugins.contains(SINK_CONNECTOR_CLASS) && plugins.contains(SOURCE_CONNECTOR_CLASS)
                    ? Optional.of(plugins) : Optional.empty();
        });
    }

    /** Polls {@code probe} while {@code component} lives; its death or the deadline fails the start. */
    private <T> T await(ChildJvm component, String what, Duration timeout, java.util.function.Supplier<Optional<T>> probe) {
        progress.accept("waiting for " + what);
        try {
            return Poll.until(what, timeout, Duration.ofMillis(250), () -> {
                if (!component.isAlive()) {
                    throw new Poll.Abort(component.name() + " exited");
                }
                return probe.get();
            });
        } catch (RuntimeException e) {
            throw new StackStartException(component.name() + " did not start: " + e.getMessage()
                    + "\n--- last lines of " + component.logFile() + " ---\n" + component.logTail(30), e);
        }
    }

    private void createTopic() {
        try (KafkaObserver kafka = new KafkaObserver(endpoints.kafkaBootstrap(), Map.of(), Duration.ofSeconds(30))) {
            try {
                kafka.admin().createTopics(List.of(new NewTopic(StackOptions.TOPIC, options.partitions(), (short) 1)))
                        .all().get();
                progress.accept("created topic " + StackOptions.TOPIC + " with " + options.partitions() + " partitions");
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new StackStartException("cannot create topic " + StackOptions.TOPIC + ": " + e.getCause().getMessage(), e);
                }
                int existing = kafka.partitionCount(StackOptions.TOPIC);
                if (existing != options.partitions()) {
                    throw new StackStartException("topic " + StackOptions.TOPIC + " already has " + existing
                            + " partitions in " + dataDir + ", not the " + options.partitions() + " asked for: add --fresh to start over", null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StackStartException("interrupted creating topic", e);
            }
        }
    }

    private void createIndex() {
        String body = indexDefinition(options.shards());
        try (ElasticsearchConnection es = new ElasticsearchConnection(endpoints.elasticsearchUrl(), 30_000)) {
            if (es.client().indices().exists(e -> e.index(StackOptions.INDEX)).value()) {
                String shards = es.client().indices().getSettings(g -> g.index(StackOptions.INDEX))
                        .get(StackOptions.INDEX).settings().index().numberOfShards();
                if (!String.valueOf(options.shards()).equals(shards)) {
                    throw new StackStartException("index " + StackOptions.INDEX + " already has " + shards
                            + " primary shards in " + dataDir + ", not the " + options.shards() + " asked for: add --fresh to start over", null);
                }
                return;
            }
            es.client().indices().create(c -> c.index(StackOptions.INDEX).withJson(new StringReader(body)));
            progress.accept("created index " + StackOptions.INDEX + " with " + options.shards() + " primary shard(s), 0 replicas");
        } catch (IOException e) {
            throw new StackStartException("cannot create index " + StackOptions.INDEX + ": " + e.getMessage(), e);
        }
    }

    private void createConnectors() {
        ConnectRestClient connect = new ConnectRestClient(endpoints.connectUrl());
        connect.putConnectorConfig(StackOptions.SOURCE_CONNECTOR, connectorConfig("stocks-datagen.json", Map.of(
                "TOPIC", StackOptions.TOPIC, "KEY_FIELD", options.keyField(),
                "RATE_PER_TASK", String.valueOf(options.ratePerSecond()),
                "ITERATIONS", String.valueOf(options.iterations()))));
        connect.putConnectorConfig(StackOptions.SINK_CONNECTOR, connectorConfig(options.sinkMode().template(), Map.of(
                "TOPIC", StackOptions.TOPIC, "INDEX", StackOptions.INDEX,
                "SINK_TASKS", String.valueOf(options.sinkTasks()),
                "ES_HOST_PORT", endpoints.elasticsearchUrl().getHost() + ":" + endpoints.elasticsearchUrl().getPort())));
        progress.accept("created connectors " + StackOptions.SOURCE_CONNECTOR + " and " + StackOptions.SINK_CONNECTOR);
    }

    /** The stock trades' index definition ({@code configs/elasticsearch/stocks-index.json}) with {@code shards} primaries, no replicas. */
    public String indexDefinition(int shards) {
        return ConfigTemplate.load(layout.configs().resolve("elasticsearch/stocks-index.json"))
                .render(Map.of("SHARDS", String.valueOf(shards), "REPLICAS", "0"));
    }

    /** Creates index {@code name} from {@link #indexDefinition}: benchmarks and experiments give each run an index of its own. */
    public void createIndex(ElasticsearchConnection elasticsearch, String name, int shards) {
        Request request = new Request("PUT", "/" + name);
        request.setJsonEntity(indexDefinition(shards));
        try {
            elasticsearch.restClient().performRequest(request);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create index " + name, e);
        }
    }

    /** A connector configuration from {@code configs/connectors/}, filled in. */
    public Map<String, String> connectorConfig(String file, Map<String, String> values) {
        String json = ConfigTemplate.load(layout.configs().resolve("connectors/" + file)).render(values);
        try {
            return JSON.readValue(json, new TypeReference<Map<String, String>>() { });
        } catch (IOException e) {
            throw new IllegalStateException("configs/connectors/" + file + " is not a JSON object of strings", e);
        }
    }

    private Path writeConfig(String name, String template, Map<String, String> values) {
        Path file = dataDir.resolve("config").resolve(name);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, ConfigTemplate.load(layout.configs().resolve(template)).render(values));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private ChildJvm record(ChildJvm child) {
        children.add(child);
        StackState.write(dataDir, endpoints, children);
        return child;
    }

    private Path logFile(String component) {
        return dataDir.resolve("logs").resolve(component + ".log");
    }

    static String workerName(int index) {
        return "connect-" + index;
    }

    private static void deleteRecursively(Path dir) {
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
