package io.kcscale.local;

import static io.kcscale.local.StackPorts.HOST;

import io.kcscale.scaler.poll.Poll;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;

/**
 * Starts each component of the stack as a child JVM (Prometheus as a plain process) with its
 * configuration written to {@code <data>/config/} and its output in {@code <data>/logs/}. Starting
 * is all it does: the caller records the child and waits for it to be ready.
 */
public final class ComponentStarter {

    // runs on its own classpath (local/elasticsearch-node), so named, not imported
    private static final String ELASTICSEARCH_MAIN = "io.kcscale.local.elasticsearch.ElasticsearchNodeMain";
    private static final String SCALER_MAIN = "io.kcscale.scaler.service.ServeCommand";

    /** The worker templates' placeholder for {@code offset.flush.interval.ms}. */
    public static final String COMMIT_INTERVAL_MS = "COMMIT_INTERVAL_MS";

    private final InstallLayout layout;
    private final StackPorts ports;
    private final StackEndpoints endpoints;
    private final Consumer<String> progress;

    public ComponentStarter(
            InstallLayout layout, StackPorts ports, StackEndpoints endpoints, Consumer<String> progress) {
        this.layout = layout;
        this.ports = ports;
        this.endpoints = endpoints;
        this.progress = progress;
    }

    /**
     * The prometheus program when {@code --prometheus} asks for it; checked before anything starts,
     * like the agent jar {@code --metrics} needs.
     */
    static Optional<Path> requireMetricsTools(StackOptions options, InstallLayout layout) {
        if (options.metrics().exporter() && !Files.isRegularFile(layout.jmxExporterAgent())) {
            throw new IllegalStateException("--metrics needs the JMX exporter agent at " + layout.jmxExporterAgent()
                    + ": run `./kcscale build`");
        }
        if (!options.metrics().prometheus()) {
            return Optional.empty();
        }
        return Optional.of(LocalPrometheus.binary()
                .orElseThrow(() -> new IllegalStateException(
                        "--prometheus needs the prometheus program on the PATH (Debian: apt-get install prometheus);"
                                + " or run the compose stack (compose/docker-compose.yml)")));
    }

    /** The KRaft broker; formats its storage first when the data directory has none. */
    public ChildJvm kafka() {
        return kafka(List.of());
    }

    /** The KRaft broker with {@code proxied} listeners beside those of its template. */
    public ChildJvm kafka(List<ProxiedKafkaListener> proxied) {
        return kafka("kafka/broker.properties", Map.of(), List.of(), proxied);
    }

    /**
     * The broker from {@code template}, given {@code values} beyond its ports and directory, with
     * {@code formatArguments} added when its storage is formatted (the secured stack's SCRAM credentials).
     */
    public ChildJvm kafka(String template, Map<String, String> values, List<String> formatArguments) {
        return kafka(template, values, formatArguments, List.of());
    }

    private ChildJvm kafka(
            String template,
            Map<String, String> values,
            List<String> formatArguments,
            List<ProxiedKafkaListener> proxied) {
        Path logDir = endpoints.dataDir().resolve("kafka");
        Map<String, String> all = new HashMap<>(values);
        all.putAll(Map.of(
                "KAFKA_HOST",
                HOST,
                "KAFKA_PORT",
                String.valueOf(ports.kafka()),
                "CONTROLLER_PORT",
                String.valueOf(ports.controller()),
                "KAFKA_LOG_DIR",
                logDir.toString()));
        Path config = writeConfig("broker.properties", template, all);
        if (!proxied.isEmpty()) {
            addListeners(config, proxied);
        }
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            formatKafkaStorage(logDir, config, formatArguments);
        }
        progress.accept("starting kafka on " + endpoints.kafkaBootstrap());
        return ChildJvm.start(
                "kafka",
                layout.kafkaClasspath(),
                kafkaJvmOptions(brokerHeap()),
                "kafka.Kafka",
                List.of(config.toString()),
                logFile("kafka"));
    }

    /**
     * Adds {@code proxied} to the listeners the rendered {@code config} names, as lines after the template's: of a key
     * given twice, the broker takes the last.
     */
    private static void addListeners(Path config, List<ProxiedKafkaListener> proxied) {
        Properties broker = new Properties();
        try (Reader r = Files.newBufferedReader(config, StandardCharsets.UTF_8)) {
            broker.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + config, e);
        }
        StringBuilder listeners = new StringBuilder(broker.getProperty("listeners"));
        StringBuilder advertised = new StringBuilder(broker.getProperty("advertised.listeners"));
        StringBuilder protocols = new StringBuilder(broker.getProperty("listener.security.protocol.map"));
        for (int i = 0; i < proxied.size(); i++) {
            String name = "PROXIED" + i;
            listeners
                    .append(',')
                    .append(name)
                    .append("://")
                    .append(HOST)
                    .append(':')
                    .append(proxied.get(i).port());
            advertised
                    .append(',')
                    .append(name)
                    .append("://")
                    .append(HOST)
                    .append(':')
                    .append(proxied.get(i).advertisedPort());
            protocols.append(',').append(name).append(":PLAINTEXT");
        }
        try {
            Files.writeString(
                    config,
                    "\n# listeners reached through proxies of the caller's\nlisteners=" + listeners
                            + "\nadvertised.listeners=" + advertised + "\nlistener.security.protocol.map=" + protocols
                            + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + config, e);
        }
    }

    private void formatKafkaStorage(Path logDir, Path config, List<String> formatArguments) {
        progress.accept("formatting Kafka storage in " + logDir);
        List<String> arguments =
                new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
        arguments.addAll(formatArguments);
        ChildJvm format = ChildJvm.start(
                "kafka-format",
                layout.kafkaClasspath(),
                kafkaJvmOptions("256m"),
                "kafka.tools.StorageTool",
                arguments,
                logFile("kafka-format"));
        Poll.untilTrue(
                "Kafka storage format to finish",
                Duration.ofSeconds(60),
                Duration.ofMillis(100),
                () -> !format.isAlive(),
                () -> "still formatting");
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            throw new StackStartException("formatting Kafka storage failed:\n" + format.logTail(20), null);
        }
    }

    public ChildJvm elasticsearch() {
        return ChildJvm.start(
                "elasticsearch",
                layout.elasticsearchClasspath(),
                List.of("-Xms512m", "-Xmx512m", "-XX:+ExitOnOutOfMemoryError"),
                ELASTICSEARCH_MAIN,
                List.of(
                        endpoints.dataDir().resolve("elasticsearch").toString(),
                        String.valueOf(ports.elasticsearch()),
                        String.valueOf(ports.elasticsearchTransport())),
                logFile("elasticsearch"));
    }

    /**
     * Connect worker {@code index} of the group, named {@code connect-<index>}, its sink tasks committing every
     * {@code commitIntervalMs}.
     */
    public ChildJvm worker(int index, long commitIntervalMs) {
        return worker(
                index,
                "connect/worker.properties",
                Map.of(COMMIT_INTERVAL_MS, String.valueOf(commitIntervalMs)),
                List.of());
    }

    /**
     * A worker from {@code template}, given {@code values} beyond its ports and plugins ({@value #COMMIT_INTERVAL_MS}
     * among them), and {@code jvmOptions} beyond the usual.
     */
    public ChildJvm worker(int index, String template, Map<String, String> values, List<String> jvmOptions) {
        int port = ports.connect().get(index);
        Map<String, String> all = new HashMap<>(values);
        all.putAll(Map.of(
                "KAFKA_BOOTSTRAP",
                endpoints.kafkaBootstrap(),
                "CONNECT_HOST",
                HOST,
                "CONNECT_PORT",
                String.valueOf(port),
                "PLUGIN_PATH",
                layout.pluginPath().stream().map(Path::toString).collect(Collectors.joining(","))));
        Path config = writeConfig(workerName(index) + ".properties", template, all);
        progress.accept("starting " + workerName(index) + " on "
                + endpoints.connectUrls().get(index));
        List<String> jvm = new ArrayList<>(kafkaJvmOptions("1g"));
        jvm.addAll(jvmOptions);
        if (!ports.metrics().isEmpty()) {
            // the same agent and rules as the compose stack's connect image
            jvm.add("-javaagent:" + layout.jmxExporterAgent() + "=" + HOST + ":"
                    + ports.metrics().get(index) + ":" + layout.jmxExporterConfig());
        }
        jvm.addAll(extraWorkerJvmOptions());
        return ChildJvm.start(
                workerName(index),
                layout.kafkaClasspath(),
                jvm,
                "org.apache.kafka.connect.cli.ConnectDistributed",
                List.of(config.toString()),
                logFile(workerName(index)));
    }

    /** The scaler service, observing this stack: the same {@code serve} verb a user runs against any pipeline. */
    ChildJvm scaler() {
        progress.accept("starting the scaler on " + endpoints.scalerUrl());
        return scaler(
                "scaler",
                ports.scaler(),
                endpoints.connectUrl(),
                endpoints.kafkaBootstrap(),
                endpoints.dataDir().resolve("scaler"),
                List.of());
    }

    /**
     * A scaler of the caller's own beside the stack's (a replica, say), observing the stack through the addresses
     * given (a proxy in front of Connect or Kafka), with {@code args} beyond the stack's; its state under
     * {@code <data>/<name>}, its output in {@code <data>/logs/<name>.log}. Not one of the stack's components: the
     * caller stops it.
     */
    public ChildJvm scaler(
            String name, int port, URI connectUrl, String kafkaBootstrap, Path stateDir, List<String> args) {
        List<String> all = new ArrayList<>(List.of(
                "serve",
                "--port",
                String.valueOf(port),
                "--connect-url",
                connectUrl.toString(),
                "--kafka-bootstrap-servers",
                kafkaBootstrap,
                "--elasticsearch-url",
                endpoints.elasticsearchUrl().toString(),
                "--rebalance-delay-seconds",
                workerRebalanceDelaySeconds(),
                "--state-dir",
                stateDir.toString()));
        // with --metrics, worker-capacity reads each worker's exporter first (its process where that gives nothing yet)
        endpoints.workerMetricsUrls().forEach(pair -> all.addAll(List.of("--worker-metrics-url", pair)));
        all.addAll(args);
        return ChildJvm.start(
                name,
                layout.scalerClasspath(),
                List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"),
                SCALER_MAIN,
                all,
                logFile(name));
    }

    /**
     * The workers' {@code scheduled.rebalance.max.delay.ms} from their template, in seconds: the scaler must be told it,
     * since Connect's REST API does not say it, and the template is its one source.
     */
    private String workerRebalanceDelaySeconds() {
        Path template = layout.configs().resolve("connect/worker.properties");
        Properties worker = new Properties();
        try (Reader r = Files.newBufferedReader(template, StandardCharsets.UTF_8)) {
            worker.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + template, e);
        }
        String millis =
                worker.getProperty("scheduled.rebalance.max.delay.ms", "300000").strip();
        return String.valueOf(Long.parseLong(millis) / 1000.0);
    }

    /**
     * The delay proxy every sink request passes ({@code --sink-latency-ms}); it needs only the JDK, so it runs
     * from wherever this launcher's own classes are (the launcher's jar, or its classes in a build).
     */
    ChildJvm sinkProxy(int latencyMs, int serialMs) {
        progress.accept(
                "starting the sink latency proxy on " + endpoints.sinkElasticsearchUrl() + ": every sink request waits "
                        + latencyMs + " ms" + (serialMs > 0 ? ", then holds one shared lock " + serialMs + " ms" : ""));
        String classpath;
        try {
            classpath = Path.of(SinkDelayProxy.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot locate the launcher's classes for the sink proxy", e);
        }
        return ChildJvm.start(
                SinkDelayProxy.NAME,
                classpath,
                List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                SinkDelayProxy.class.getName(),
                List.of(
                        endpoints.elasticsearchUrl().toString(),
                        String.valueOf(latencyMs),
                        String.valueOf(serialMs),
                        String.valueOf(ports.sinkProxy())),
                logFile(SinkDelayProxy.NAME));
    }

    /** @param binary from {@link #requireMetricsTools} */
    ChildJvm prometheus(Path binary) {
        progress.accept("starting prometheus on " + endpoints.prometheusUrl());
        return LocalPrometheus.start(binary, layout, endpoints, logFile(LocalPrometheus.NAME));
    }

    private static String workerName(int index) {
        return "connect-" + index;
    }

    /** {@code KCSCALE_WORKER_JAVA_OPTS}: extra JVM options for workers (say, a profiler; {@code --metrics} attaches the JMX exporter). */
    private static List<String> extraWorkerJvmOptions() {
        String extra = System.getenv("KCSCALE_WORKER_JAVA_OPTS");
        return extra == null || extra.isBlank()
                ? List.of()
                : List.of(extra.trim().split("\\s+"));
    }

    /**
     * {@code KCSCALE_BROKER_HEAP}: the broker's heap (default 512m, enough for the pipeline's topics); a fleet of tens of
     * thousands of partitions (bench scaler) needs more.
     */
    static String brokerHeap() {
        return brokerHeap(System.getenv("KCSCALE_BROKER_HEAP"));
    }

    static String brokerHeap(String setting) {
        if (setting == null || setting.isBlank()) {
            return "512m";
        }
        String heap = setting.trim().toLowerCase(Locale.ROOT);
        if (!heap.matches("[1-9][0-9]{0,5}[mg]")) {
            throw new IllegalArgumentException(
                    "KCSCALE_BROKER_HEAP must be a heap size such as 512m or 2g, got '" + setting + "'");
        }
        return heap;
    }

    private List<String> kafkaJvmOptions(String heap) {
        return List.of(
                "-Xms256m",
                "-Xmx" + heap,
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + layout.configs().resolve("kafka/log4j2.properties"));
    }

    public Path writeConfig(String name, String template, Map<String, String> values) {
        Path file = endpoints.dataDir().resolve("config").resolve(name);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file,
                    ConfigTemplate.load(layout.configs().resolve(template)).render(values));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public Path logFile(String component) {
        return endpoints.dataDir().resolve("logs").resolve(component + ".log");
    }
}
