package io.kcscale.scaler.service;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

import io.kcscale.scaler.access.Secret;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.kubernetes.KubernetesSettings;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;

/**
 * How the scaler reaches a pipeline, and its limits. Read from a properties file ({@code --config})
 * whose keys are listed in {@link #KEYS}; command-line flags override the file.
 */
public record ScalerSettings(
        URI connectUrl,
        String bootstrapServers,
        URI elasticsearchUrl,
        Optional<String> connectAuthorization,
        Optional<String> elasticsearchAuthorization,
        Map<String, String> kafkaProperties,
        Optional<Path> truststore,
        String truststorePassword,
        int maxTasks,
        Duration window,
        Duration sampleInterval,
        Duration convergeTimeout,
        Optional<String> token,
        Path stateDir,
        Duration autoscaleInterval,
        Duration rebalanceDelay,
        Optional<Path> connectWorkerConfig,
        SinkIndexes indexes,
        Optional<KubernetesSettings> kubernetes,
        String stateTopic,
        String leaderGroup,
        WorkerCpuSettings workerCpu) {

    /** The key prefix naming a connector's index: {@code index.<connector>=<index>}. */
    public static final String INDEX_PREFIX = "index.";

    /** The keys of a settings file, with what they mean. {@code kafka.*} keys go to the Kafka clients. */
    public static final Map<String, String> KEYS = Map.ofEntries(
            Map.entry("connect.url", "Kafka Connect REST URL, e.g. http://127.0.0.1:8083"),
            Map.entry("connect.username", "HTTP basic auth user for Connect"),
            Map.entry("connect.password", "HTTP basic auth password for Connect"),
            Map.entry("kafka.bootstrap.servers", "Kafka bootstrap servers"),
            Map.entry("elasticsearch.url", "Elasticsearch URL, e.g. http://127.0.0.1:9200"),
            Map.entry("elasticsearch.username", "basic auth user for Elasticsearch"),
            Map.entry("elasticsearch.password", "basic auth password for Elasticsearch"),
            Map.entry("elasticsearch.api.key", "Elasticsearch API key (the encoded id:key), instead of basic auth"),
            Map.entry("tls.truststore", "truststore (PKCS12 or JKS) for https Connect and Elasticsearch URLs"),
            Map.entry("tls.truststore.password", "its password"),
            Map.entry("max.tasks", "the most tasks a scale may set (default 100)"),
            Map.entry("window.seconds", "the sliding window rates are computed over (default 30)"),
            Map.entry("sample.interval.seconds", "how often the pipeline is sampled (default 2)"),
            Map.entry("converge.timeout.seconds", "how long a scale waits for its tasks to run (default 120)"),
            Map.entry("token", "bearer token required by mutating endpoints (default: none)"),
            Map.entry("state.dir", "where a scaler before the state topic kept autoscale policies: a policies file there is"
                    + " moved into the state topic once (default: ~/.kcscale)"),
            Map.entry("scaler.cluster.id", "names the replicas of one scaler: those with the same id share policies and elect one"
                    + " leader; give each Connect cluster's scalers their own (default: default)"),
            Map.entry("state.topic", "the compacted topic of autoscale policies and decisions (default: kcscale-<scaler.cluster.id>-state)"),
            Map.entry("leader.group", "the consumer group the replicas elect their leader in (default: kcscale-<scaler.cluster.id>-leader)"),
            Map.entry("autoscale.interval.seconds", "how often the autoscaler evaluates its policies (default 5)"),
            Map.entry("rebalance.delay.seconds", "the workers' scheduled.rebalance.max.delay.ms, in seconds: how long Connect keeps a"
                    + " lost worker's tasks before it reassigns them (default 300, Connect's; its REST API does not say)"),
            Map.entry("connect.worker.config", "the Connect worker's properties file, for its consumer.* settings (rebalance-config check)"),
            Map.entry("token.file", "a file holding the token (instead of token)"),
            Map.entry("connect.password.file", "a file holding the Connect password"),
            Map.entry("elasticsearch.password.file", "a file holding the Elasticsearch password"),
            Map.entry("elasticsearch.api.key.file", "a file holding the Elasticsearch API key"),
            Map.entry("tls.truststore.password.file", "a file holding the truststore password"),
            Map.entry("allowed.origins", "comma-separated web origins whose pages may call the API, e.g. https://ops.example.com"),
            Map.entry("allowed.hosts", "comma-separated names (optionally name:port) the API may be called by besides localhost and IP addresses"),
            Map.entry(INDEX_PREFIX + "<connector>", "the Elasticsearch index a sink connector writes to, where its config does not say (--index CONNECTOR=INDEX)"),
            Map.entry("kubernetes.namespace", "the namespace of the KafkaConnector resources: a connector one manages is scaled through it"),
            Map.entry("kubernetes.kubeconfig", "a kubeconfig file (default: the pod's service account, else $KUBECONFIG or ~/.kube/config)"),
            Map.entry("kubernetes.connect.cluster", "the strimzi.io/cluster label of the KafkaConnect at connect.url (default: any)"),
            Map.entry("worker.cpu.source", "where worker-capacity reads the workers' CPU: auto (each worker from the first of exporter,"
                    + " prometheus, proc that reads it), exporter, prometheus or proc (default auto)"),
            Map.entry("worker.metrics.url", "each worker's JMX exporter: a template with {host} (and {port}, the worker's REST port), e.g."
                    + " http://{host}:9404/metrics, and/or comma-separated WORKER=URL pairs"),
            Map.entry("prometheus.url", "a Prometheus server scraping the workers' exporters, e.g. http://prometheus:9090"));

    /**
     * The secret keys, with the environment variable each may come from. Each may also be read from the file
     * its {@code <key>.file} names, so that no secret has to be on a command line, where {@code ps} shows it.
     */
    public static final Map<String, String> SECRETS = Map.of(
            "token", "KCSCALE_TOKEN",
            "connect.password", "KCSCALE_CONNECT_PASSWORD",
            "elasticsearch.password", "KCSCALE_ELASTICSEARCH_PASSWORD",
            "elasticsearch.api.key", "KCSCALE_ELASTICSEARCH_API_KEY",
            "tls.truststore.password", "KCSCALE_TRUSTSTORE_PASSWORD");

    public static final int DEFAULT_MAX_TASKS = 100;

    public ScalerSettings {
        require(connectUrl != null, "connect.url (--connect-url) is required");
        require(bootstrapServers != null && !bootstrapServers.isBlank(), "kafka.bootstrap.servers (--bootstrap-servers) is required");
        require(elasticsearchUrl != null, "elasticsearch.url (--elasticsearch-url) is required");
        require(maxTasks >= 1, "max.tasks (--max-tasks) must be at least 1, got " + maxTasks);
        require(!window.isNegative() && window.toMillis() >= 2 * sampleInterval.toMillis(),
                "window.seconds must span at least two sample intervals");
        require(sampleInterval.toMillis() >= 100, "sample.interval.seconds must be at least 0.1");
        require(!convergeTimeout.isNegative() && !convergeTimeout.isZero(), "converge.timeout.seconds must be positive");
        require(connectWorkerConfig.isEmpty() || Files.isReadable(connectWorkerConfig.get()),
                "connect.worker.config (--connect-worker-config) must be a readable file, got " + connectWorkerConfig.orElse(null));
    }

    /**
     * Settings from key → value (a file's keys, with flags laid over them).
     *
     * @throws IllegalArgumentException naming the key of the first bad or missing value
     */
    public static ScalerSettings fromValues(Map<String, String> v) {
        return new ScalerSettings(
                uri(v, "connect.url"), v.get("kafka.bootstrap.servers"), uri(v, "elasticsearch.url"),
                authorization(v.get("connect.username"), Secret.of(v, "connect.password").orElse(null), null),
                authorization(v.get("elasticsearch.username"), Secret.of(v, "elasticsearch.password").orElse(null),
                        Secret.of(v, "elasticsearch.api.key").orElse(null)),
                kafkaClientProperties(v),
                Optional.ofNullable(v.get("tls.truststore")).map(Path::of), Secret.of(v, "tls.truststore.password").orElse(null),
                (int) number(v, "max.tasks", DEFAULT_MAX_TASKS),
                seconds(v, "window.seconds", 30), seconds(v, "sample.interval.seconds", 2),
                seconds(v, "converge.timeout.seconds", 120),
                Secret.of(v, "token"),
                Path.of(v.getOrDefault("state.dir", Path.of(System.getProperty("user.home"), ".kcscale").toString())),
                seconds(v, "autoscale.interval.seconds", 5),
                rebalanceDelay(v),
                Optional.ofNullable(v.get("connect.worker.config")).filter(f -> !f.isBlank()).map(Path::of),
                SinkIndexes.of(indexes(v)),
                KubernetesSettings.fromValues(v),
                v.getOrDefault("state.topic", "kcscale-" + clusterId(v) + "-state"),
                v.getOrDefault("leader.group", "kcscale-" + clusterId(v) + "-leader"),
                WorkerCpuSettings.fromValues(v));
    }

    /** Default {@code default}: replicas that name none share one state topic and one leader. */
    private static String clusterId(Map<String, String> v) {
        String id = v.getOrDefault("scaler.cluster.id", "default").strip();
        require(id.matches("[A-Za-z0-9._-]{1,100}"), "scaler.cluster.id must be 1 to 100 letters, digits, '.', '_' or '-', got " + id);
        return id;
    }

    /** Connect's own default, 5 minutes: a worker group that sets none waits this long. */
    public static final Duration DEFAULT_REBALANCE_DELAY = Duration.ofMinutes(5);
    /** A day: beyond it a value is a mistake (say, milliseconds given as seconds). */
    private static final long MAX_REBALANCE_DELAY_SECONDS = 86_400;

    /** {@code rebalance.delay.seconds}: 0 too, since Connect allows it (it then reassigns at once). */
    private static Duration rebalanceDelay(Map<String, String> v) {
        String value = v.get("rebalance.delay.seconds");
        if (value == null || value.isBlank()) {
            return DEFAULT_REBALANCE_DELAY;
        }
        try {
            double seconds = Double.parseDouble(value.trim());
            if (!(seconds >= 0 && seconds <= MAX_REBALANCE_DELAY_SECONDS)) {
                throw new NumberFormatException();
            }
            return Duration.ofMillis(Math.round(seconds * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rebalance.delay.seconds (--rebalance-delay-seconds) must be a number of seconds from 0 to "
                    + MAX_REBALANCE_DELAY_SECONDS + " (the workers' scheduled.rebalance.max.delay.ms / 1000), got " + value);
        }
    }

    private static URI uri(Map<String, String> v, String key) {
        String value = v.get(key);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            URI uri = URI.create(value.trim());
            if (uri.getHost() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be an http(s) URL with a host, e.g. http://127.0.0.1:8083; got " + value);
        }
    }

    private static double number(Map<String, String> v, String key, double fallback) {
        String value = v.get(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(value.trim());
            if (!Double.isFinite(d) || d <= 0) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a positive number, got " + value);
        }
    }

    private static Duration seconds(Map<String, String> v, String key, double fallback) {
        return Duration.ofMillis(Math.round(number(v, key, fallback) * 1000));
    }

    /** Reads a settings file into key → value, refusing keys it does not know (a typo must not pass silently). */
    public static Map<String, String> readFile(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read settings file " + file + ": " + e.getMessage());
        }
        Map<String, String> values = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (!KEYS.containsKey(key) && !key.startsWith("kafka.") && !key.startsWith(INDEX_PREFIX)) {
                throw new IllegalArgumentException("unknown key " + key + " in " + file + "; known keys: "
                        + new TreeMap<>(KEYS).keySet() + " and kafka.<client property>");
            }
            values.put(key, p.getProperty(key).trim());
        }
        return values;
    }

    /** Every field but the secrets, which show only whether they are set; Kafka client properties by key alone (they hold SASL passwords). */
    @Override
    public String toString() {
        return "ScalerSettings[connectUrl=" + connectUrl + ", bootstrapServers=" + bootstrapServers
                + ", elasticsearchUrl=" + elasticsearchUrl + ", connectAuthorization=" + hidden(connectAuthorization)
                + ", elasticsearchAuthorization=" + hidden(elasticsearchAuthorization)
                + ", kafkaProperties=" + kafkaProperties.keySet() + ", truststore=" + truststore
                + ", truststorePassword=" + hidden(Optional.ofNullable(truststorePassword)) + ", maxTasks=" + maxTasks
                + ", window=" + window + ", sampleInterval=" + sampleInterval + ", convergeTimeout=" + convergeTimeout
                + ", token=" + hidden(token) + ", stateDir=" + stateDir + ", autoscaleInterval=" + autoscaleInterval
                + ", rebalanceDelay=" + rebalanceDelay
                + ", connectWorkerConfig=" + connectWorkerConfig + ", indexes=" + indexes.named() + ", kubernetes=" + kubernetes
                + ", stateTopic=" + stateTopic + ", leaderGroup=" + leaderGroup + ", workerCpu=" + workerCpu + "]";
    }

    private static String hidden(Optional<String> secret) {
        return secret.isPresent() ? "(set)" : "(none)";
    }

    /** An {@code Authorization} header value: an API key wins over basic auth; neither gives none. */
    public static Optional<String> authorization(String username, String password, String apiKey) {
        if (apiKey != null && !apiKey.isBlank()) {
            return Optional.of("ApiKey " + apiKey.trim());
        }
        if (username == null || username.isBlank()) {
            return Optional.empty();
        }
        String pair = username + ":" + (password == null ? "" : password);
        return Optional.of("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }

    /** The index named per connector among {@code index.*} keys, by connector name. */
    private static Map<String, String> indexes(Map<String, String> values) {
        Map<String, String> indexes = new TreeMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(INDEX_PREFIX)) {
                indexes.put(k.substring(INDEX_PREFIX.length()), v);
            }
        });
        return indexes;
    }

    /** The Kafka client properties among {@code kafka.*} keys, without the prefix. */
    public static Map<String, String> kafkaClientProperties(Map<String, String> values) {
        Map<String, String> kafka = new TreeMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith("kafka.") && !k.equals("kafka.bootstrap.servers")) {
                kafka.put(k.substring("kafka.".length()), v);
            }
        });
        return kafka;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
