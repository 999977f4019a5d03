package io.kcscale.scaler.cli;

import io.kcscale.scaler.input.Flags;

import io.kcscale.scaler.access.Secret;
import io.kcscale.scaler.api.ApiAccess;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.api.OpenApiRoutes;
import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;

/** {@code kcscale serve}: runs the REST API until the process is stopped (SIGTERM or Ctrl-C stop it cleanly). */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the scaler's REST API (OpenAPI document at /openapi.json) until stopped.",
                "With a pipeline's Connect URL, bootstrap servers and Elasticsearch URL it observes every sink",
                "connector and can scale them; without, it answers predictions only."})
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "Settings file (properties); flags override it. Keys: "
            + "connect.url, kafka.bootstrap.servers, elasticsearch.url, connect.username, connect.password, "
            + "elasticsearch.username, elasticsearch.password, elasticsearch.api.key, tls.truststore, tls.truststore.password, "
            + "max.tasks, window.seconds, sample.interval.seconds, converge.timeout.seconds, token, state.dir, scaler.cluster.id, "
            + "state.topic, leader.group, "
            + "autoscale.interval.seconds, rebalance.delay.seconds, connect.worker.config, allowed.origins, allowed.hosts, kubernetes.namespace, "
            + "kubernetes.kubeconfig, kubernetes.connect.cluster, worker.cpu.source, worker.metrics.url, prometheus.url, "
            + "kafka.<client property>, index.<connector>; "
            + "each secret also as <key>.file (e.g. token.file).")
    Path config;
    @Option(names = "--connect-url", paramLabel = "URL", description = "Kafka Connect REST URL.")
    String connectUrl;
    @Option(names = "--bootstrap-servers", paramLabel = "HOSTS", description = "Kafka bootstrap servers.")
    String bootstrapServers;
    @Option(names = "--elasticsearch-url", paramLabel = "URL", description = "Elasticsearch URL.")
    String elasticsearchUrl;
    @Option(names = "--connect-username", paramLabel = "USER", description = "Basic auth for Connect.")
    String connectUsername;
    @Option(names = "--connect-password", paramLabel = "PASSWORD", description = "Basic auth for Connect (or $KCSCALE_CONNECT_PASSWORD).")
    String connectPassword;
    @Option(names = "--connect-password-file", paramLabel = "FILE", description = "A file holding it.")
    String connectPasswordFile;
    @Option(names = "--elasticsearch-username", paramLabel = "USER", description = "Basic auth for Elasticsearch.")
    String elasticsearchUsername;
    @Option(names = "--elasticsearch-password", paramLabel = "PASSWORD",
            description = "Basic auth for Elasticsearch (or $KCSCALE_ELASTICSEARCH_PASSWORD).")
    String elasticsearchPassword;
    @Option(names = "--elasticsearch-password-file", paramLabel = "FILE", description = "A file holding it.")
    String elasticsearchPasswordFile;
    @Option(names = "--elasticsearch-api-key", paramLabel = "KEY",
            description = "Elasticsearch API key, instead of basic auth (or $KCSCALE_ELASTICSEARCH_API_KEY).")
    String elasticsearchApiKey;
    @Option(names = "--elasticsearch-api-key-file", paramLabel = "FILE", description = "A file holding it.")
    String elasticsearchApiKeyFile;
    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE", description = "A Kafka client property (SASL, TLS, ...); repeatable.")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();
    @Option(names = "--index", paramLabel = "CONNECTOR=INDEX",
            description = "The Elasticsearch index a sink connector writes to, where its config does not say; repeatable.")
    Map<String, String> indexes = new LinkedHashMap<>();
    @Option(names = "--truststore", paramLabel = "FILE", description = "Truststore for https Connect and Elasticsearch URLs.")
    String truststore;
    @Option(names = "--truststore-password", paramLabel = "PASSWORD", description = "Its password (or $KCSCALE_TRUSTSTORE_PASSWORD).")
    String truststorePassword;
    @Option(names = "--truststore-password-file", paramLabel = "FILE", description = "A file holding it.")
    String truststorePasswordFile;
    @Option(names = "--max-tasks", paramLabel = "N", description = "The most tasks a scale may set (default: 100).")
    String maxTasks;
    @Option(names = "--window-seconds", paramLabel = "S", description = "Sliding window for rates (default: 30).")
    String windowSeconds;
    @Option(names = "--sample-interval-seconds", paramLabel = "S", description = "How often to sample (default: 2).")
    String sampleIntervalSeconds;
    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where an earlier scaler kept autoscale policies: its file is moved into the state topic once (default: ~/.kcscale).")
    String stateDir;
    @Option(names = "--scaler-cluster-id", paramLabel = "ID",
            description = "Replicas with the same id share policies and elect one leader; one per Connect cluster (default: default).")
    String scalerClusterId;
    @Option(names = "--state-topic", paramLabel = "TOPIC",
            description = "Compacted topic of autoscale policies and decisions (default: kcscale-<scaler cluster id>-state).")
    String stateTopic;
    @Option(names = "--leader-group", paramLabel = "GROUP",
            description = "Consumer group the replicas elect their leader in (default: kcscale-<scaler cluster id>-leader).")
    String leaderGroup;
    @Option(names = "--rebalance-delay-seconds", paramLabel = "S",
            description = "The workers' scheduled.rebalance.max.delay.ms in seconds: how long Connect keeps a lost worker's"
                    + " tasks before reassigning them (default: 300, Connect's). Connect's REST API does not say.")
    String rebalanceDelaySeconds;
    @Option(names = "--connect-worker-config", paramLabel = "FILE",
            description = "The Connect worker's properties, whose consumer.* settings the rebalance-config check reads.")
    String connectWorkerConfig;
    @Option(names = "--token", paramLabel = "TOKEN",
            description = "Bearer token mutating endpoints require (default: $KCSCALE_TOKEN, else none); required to bind beyond loopback.")
    String token;
    @Option(names = "--token-file", paramLabel = "FILE", description = "A file holding the token: unlike --token, not shown by ps.")
    String tokenFile;
    @Option(names = "--allowed-origin", paramLabel = "ORIGIN",
            description = "A web origin (e.g. https://ops.example.com) whose pages may call the API; repeatable. Default: only the scaler's own page.")
    List<String> allowedOrigins = new ArrayList<>();
    @Option(names = "--allowed-host", paramLabel = "NAME[:PORT]",
            description = "A name the API may be called by besides localhost and IP addresses (a compose service, a proxy); repeatable.")
    List<String> allowedHosts = new ArrayList<>();
    @Option(names = "--kubernetes-namespace", paramLabel = "NAMESPACE",
            description = "Scale a connector that a Strimzi KafkaConnector resource in this namespace manages through that resource.")
    String kubernetesNamespace;
    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "Kubernetes credentials (default: the pod's service account, else $KUBECONFIG or ~/.kube/config).")
    String kubeconfig;
    @Option(names = "--kubernetes-connect-cluster", paramLabel = "NAME",
            description = "The strimzi.io/cluster label of the KafkaConnect at --connect-url: only its resources manage connectors here.")
    String kubernetesConnectCluster;
    @Option(names = "--worker-cpu-source", paramLabel = "SOURCE",
            description = "Where worker-capacity reads the workers' CPU: auto (each worker from the first of exporter, prometheus, proc"
                    + " that reads it), exporter, prometheus or proc (default: auto).")
    String workerCpuSource;
    @Option(names = "--worker-metrics-url", paramLabel = "URL",
            description = "Each worker's JMX exporter: a template with {host} (and {port}, the worker's REST port), e.g."
                    + " http://{host}:9404/metrics, or WORKER=URL for one worker; repeatable.")
    List<String> workerMetricsUrls = new ArrayList<>();
    @Option(names = "--prometheus-url", paramLabel = "URL",
            description = "A Prometheus server scraping the workers' exporters (it knows each by its exporter's host:port).")
    String prometheusUrl;

    @Option(names = "--port", paramLabel = "<port>",
            description = "TCP port; 0 picks a free one (default: " + ApiServer.DEFAULT_PORT + ").")
    String port;

    @Option(names = "--bind", paramLabel = "<address>",
            description = "Address to listen on (default: " + ApiServer.DEFAULT_BIND + ", this machine only).")
    String bind = ApiServer.DEFAULT_BIND;

    @Spec
    CommandSpec spec;

    /**
     * {@code kcscale serve} in a JVM of its own: the script and the launcher start it on the service's classpath, which
     * the CLI's lacks. The arguments start with {@code serve}, under a {@code kcscale} root, so its usage and errors read
     * {@code kcscale serve ...} as from the CLI's root.
     */
    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** {@code kcscale} with this one verb; tests run it through this without exiting the JVM. */
    public static CommandLine newCommandLine() {
        return new CommandLine(CommandSpec.create().name("kcscale")).addSubcommand(new ServeCommand());
    }

    @Override
    public Integer call() throws InterruptedException {
        InetSocketAddress address;
        try {
            address = new InetSocketAddress(InetAddress.getByName(bind), port());
        } catch (InvalidInputException e) {
            return ErrorLine.print(spec, e.describe(Flags::of), spec.exitCodeOnInvalidInput());
        } catch (UnknownHostException e) {
            return ErrorLine.print(spec, "--bind " + bind + " is not a known address", spec.exitCodeOnInvalidInput());
        }
        Optional<ScalerService> service;
        ApiAccess access;
        try {
            Map<String, String> values = values(System.getenv());
            access = new ApiAccess(Set.copyOf(list(values, "allowed.origins")), Set.copyOf(list(values, "allowed.hosts")));
            if (!address.getAddress().isLoopbackAddress() && Secret.of(values, "token").isEmpty()) {
                return ErrorLine.print(spec, "--bind " + bind + " lets other machines call the scaler: give it a token with "
                        + "--token-file FILE or KCSCALE_TOKEN (callers send Authorization: Bearer <token>)", spec.exitCodeOnInvalidInput());
            }
            service = connectedService(values);
        } catch (IllegalArgumentException e) {
            return ErrorLine.print(spec, e.getMessage(), spec.exitCodeOnInvalidInput());
        }
        // each on its own line, and the scaler serves on: the status names the same problems until they are fixed
        service.map(ScalerService::start).orElse(List.of())
                .forEach(problem -> spec.commandLine().getErr().println(spec.qualifiedName() + ": " + problem));
        spec.commandLine().getErr().flush();
        ApiServer server;
        try {
            server = ApiServer.start(address, service, access);
        } catch (IOException e) {
            // typically the port is taken or the address is not this machine's
            return ErrorLine.print(spec, "cannot listen on " + bind + ":" + address.getPort() + ": " + e.getMessage(),
                    spec.exitCodeOnExecutionException());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            service.ifPresent(ServeCommand::closeQuietly);
            spec.commandLine().getOut().println("kcscale API stopped");
            spec.commandLine().getOut().flush();
        }, "kcscale-api-stop"));
        PrintWriter out = spec.commandLine().getOut();
        out.println("kcscale API listening on http://" + server.address().getHostString() + ":"
                + server.address().getPort() + " (OpenAPI document: " + OpenApiRoutes.PATH + ")"
                + service.map(s -> "; observing " + s.settings().connectUrl()).orElse("; predictions only: no pipeline given"));
        out.flush();
        server.awaitClosed();
        return 0;
    }

    /** The service for the pipeline the values name; none when they name no pipeline at all. */
    private static Optional<ScalerService> connectedService(Map<String, String> values) {
        boolean namesAPipeline = values.containsKey("connect.url") || values.containsKey("kafka.bootstrap.servers")
                || values.containsKey("elasticsearch.url");
        return namesAPipeline ? Optional.of(new ScalerService(ScalerSettings.fromValues(values))) : Optional.empty();
    }

    /** The settings file's values, with secrets from {@code environment} over them, and the flags over both. */
    Map<String, String> values(Map<String, String> environment) {
        Map<String, String> values = new TreeMap<>(config == null ? Map.of() : ScalerSettings.readFile(config));
        ScalerSettings.SECRETS.forEach((key, variable) -> put(values, key, environment.get(variable)));
        put(values, "connect.url", connectUrl);
        put(values, "kafka.bootstrap.servers", bootstrapServers);
        put(values, "elasticsearch.url", elasticsearchUrl);
        put(values, "connect.username", connectUsername);
        put(values, "connect.password", connectPassword);
        put(values, "connect.password.file", connectPasswordFile);
        put(values, "elasticsearch.username", elasticsearchUsername);
        put(values, "elasticsearch.password", elasticsearchPassword);
        put(values, "elasticsearch.password.file", elasticsearchPasswordFile);
        put(values, "elasticsearch.api.key", elasticsearchApiKey);
        put(values, "elasticsearch.api.key.file", elasticsearchApiKeyFile);
        put(values, "tls.truststore", truststore);
        put(values, "tls.truststore.password", truststorePassword);
        put(values, "tls.truststore.password.file", truststorePasswordFile);
        put(values, "max.tasks", maxTasks);
        put(values, "window.seconds", windowSeconds);
        put(values, "sample.interval.seconds", sampleIntervalSeconds);
        put(values, "token", token);
        put(values, "token.file", tokenFile);
        put(values, "state.dir", stateDir);
        put(values, "scaler.cluster.id", scalerClusterId);
        put(values, "state.topic", stateTopic);
        put(values, "leader.group", leaderGroup);
        put(values, "rebalance.delay.seconds", rebalanceDelaySeconds);
        put(values, "connect.worker.config", connectWorkerConfig);
        put(values, "kubernetes.namespace", kubernetesNamespace);
        put(values, "kubernetes.kubeconfig", kubeconfig);
        put(values, "kubernetes.connect.cluster", kubernetesConnectCluster);
        put(values, "worker.cpu.source", workerCpuSource);
        put(values, "prometheus.url", prometheusUrl);
        if (!workerMetricsUrls.isEmpty()) {
            values.put("worker.metrics.url", String.join(",", workerMetricsUrls));
        }
        if (!allowedOrigins.isEmpty()) {
            values.put("allowed.origins", String.join(",", allowedOrigins));
        }
        if (!allowedHosts.isEmpty()) {
            values.put("allowed.hosts", String.join(",", allowedHosts));
        }
        kafkaProperties.forEach((k, v) -> values.put("kafka." + k, v));
        indexes.forEach((k, v) -> values.put(ScalerSettings.INDEX_PREFIX + k, v));
        return values;
    }

    /** Sets {@code key}; a secret and its file replace each other, so that the later source wins. */
    private static void put(Map<String, String> values, String key, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        values.put(key, value);
        if (key.endsWith(Secret.FILE_SUFFIX)) {
            values.remove(key.substring(0, key.length() - Secret.FILE_SUFFIX.length()));
        } else if (ScalerSettings.SECRETS.containsKey(key)) {
            values.remove(key + Secret.FILE_SUFFIX);
        }
    }

    private static List<String> list(Map<String, String> values, String key) {
        return Arrays.stream(values.getOrDefault(key, "").split(",")).map(String::strip).filter(v -> !v.isEmpty()).toList();
    }

    private static void closeQuietly(ScalerService service) {
        try {
            service.close();
        } catch (IOException ignored) {
            // the process is ending; nothing is lost by a client that did not close cleanly
        }
    }

    private int port() {
        Double value = Inputs.parse("port", port);
        if (value == null) {
            return ApiServer.DEFAULT_PORT;
        }
        if (!(value >= 0 && value <= 65_535 && value == Math.rint(value))) {
            throw new InvalidInputException("port", "must be a whole number from 0 to 65535, got " + port);
        }
        return value.intValue();
    }
}
