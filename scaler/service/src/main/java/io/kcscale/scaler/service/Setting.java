package io.kcscale.scaler.service;

import io.kcscale.scaler.common.Secret;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every setting of {@code kcscale serve}, defined once: serve's flags, the settings file's keys, the environment
 * variables and the settings table in docs/own-pipeline.md are all made from this list. A new setting is one
 * constant here, read in {@link ScalerSettings#fromValues}.
 *
 * <p>Names follow one rule: key {@code a.b.c} is flag {@code --a-b-c}; a list key (plural, comma-separated in the
 * file) takes its flag in the singular, once per item. A secret may also come from a file ({@code <key>.file},
 * {@code --<flag>-file}) or from the environment ({@code KCSCALE_<KEY>}: upper case, dots as underscores).
 * Precedence: the settings file, then the environment, then the flags; a secret and its file replace each other,
 * so that the later source wins.
 */
public enum Setting {
    CONNECT_URL(
            Group.CONNECT,
            "connect.url",
            Kind.URL,
            "URL",
            "none (predictions only)",
            "Kafka Connect REST URL: any worker of the group, e.g. http://127.0.0.1:8083"),
    CONNECT_USERNAME(Group.CONNECT, "connect.username", Kind.TEXT, "USER", "none", "HTTP basic auth user for Connect"),
    CONNECT_PASSWORD(
            Group.CONNECT, "connect.password", Kind.SECRET, "PASSWORD", "none", "HTTP basic auth password for Connect"),
    CONNECT_WORKER_CONFIG(
            Group.CONNECT,
            "connect.worker.config",
            Kind.FILE,
            "FILE",
            "none",
            "the Connect worker's properties file, whose consumer.* settings the rebalance-config check reads"),
    REBALANCE_DELAY_SECONDS(
            Group.CONNECT,
            "rebalance.delay.seconds",
            Kind.SECONDS,
            "S",
            "300",
            "the workers' scheduled.rebalance.max.delay.ms in seconds (0 to 86400): how long Connect keeps a lost worker's"
                    + " tasks before it reassigns them; Connect's REST API does not say"),

    KAFKA_BOOTSTRAP_SERVERS(
            Group.KAFKA,
            "kafka.bootstrap.servers",
            Kind.TEXT,
            "HOSTS",
            "none (predictions only)",
            "Kafka bootstrap servers",
            "--bootstrap-servers"),
    KAFKA_PROPERTY(
            Group.KAFKA,
            "kafka.",
            "--kafka-property",
            "PROPERTY=VALUE",
            "a Kafka client property (SASL, TLS, ...) for the scaler's Admin client and key sampler"),

    ELASTICSEARCH_URL(
            Group.SINK_CLUSTER,
            "elasticsearch.url",
            Kind.URL,
            "URL",
            "none (predictions only)",
            "Elasticsearch (or OpenSearch) URL, e.g. http://127.0.0.1:9200"),
    ELASTICSEARCH_USERNAME(
            Group.SINK_CLUSTER,
            "elasticsearch.username",
            Kind.TEXT,
            "USER",
            "none",
            "basic auth user for Elasticsearch"),
    ELASTICSEARCH_PASSWORD(
            Group.SINK_CLUSTER,
            "elasticsearch.password",
            Kind.SECRET,
            "PASSWORD",
            "none",
            "basic auth password for Elasticsearch"),
    ELASTICSEARCH_API_KEY(
            Group.SINK_CLUSTER,
            "elasticsearch.api.key",
            Kind.SECRET,
            "KEY",
            "none",
            "Elasticsearch API key (the encoded id:key), instead of basic auth"),
    INDEX(
            Group.SINK_CLUSTER,
            "index.",
            "--index",
            "CONNECTOR=INDEX",
            "the indexes (aliases, data streams) a sink connector writes to, where its config does not say, as a comma list"),

    TLS_TRUSTSTORE(
            Group.TLS,
            "tls.truststore",
            Kind.FILE,
            "FILE",
            "the JDK's",
            "truststore (PKCS12 or JKS) for https Connect and Elasticsearch URLs",
            "--truststore"),
    TLS_TRUSTSTORE_PASSWORD(
            Group.TLS,
            "tls.truststore.password",
            Kind.SECRET,
            "PASSWORD",
            "none",
            "the truststore's password",
            "--truststore-password",
            "KCSCALE_TRUSTSTORE_PASSWORD"),

    SAMPLE_INTERVAL_SECONDS(
            Group.SAMPLING,
            "sample.interval.seconds",
            Kind.SECONDS,
            "S",
            "2",
            "how often the pipeline is sampled (at least 0.1)"),
    WINDOW_SECONDS(
            Group.SAMPLING,
            "window.seconds",
            Kind.SECONDS,
            "S",
            "30",
            "the sliding window rates are computed over (at least two sample intervals)"),
    TASK_CAP(
            Group.SAMPLING,
            "task.cap",
            Kind.NUMBER,
            "N",
            "100",
            "the task cap: the most tasks any scale may set, the autoscaler's included; a policy's maxTasks bounds"
                    + " that policy alone",
            "--max-tasks"),
    CONVERGE_TIMEOUT_SECONDS(
            Group.SAMPLING,
            "converge.timeout.seconds",
            Kind.SECONDS,
            "S",
            "120",
            "how long a scale waits for its tasks to run"),
    AUTOSCALE_INTERVAL_SECONDS(
            Group.SAMPLING,
            "autoscale.interval.seconds",
            Kind.SECONDS,
            "S",
            "5",
            "how often the autoscaler evaluates its policies"),

    SCALER_CLUSTER_ID(
            Group.REPLICAS,
            "scaler.cluster.id",
            Kind.TEXT,
            "ID",
            "default",
            "names the replicas of one scaler: those with the same id share policies and elect one leader;"
                    + " one per Connect cluster"),
    STATE_TOPIC(
            Group.REPLICAS,
            "state.topic",
            Kind.TEXT,
            "TOPIC",
            "kcscale-<scaler.cluster.id>-state",
            "the compacted topic of autoscale policies and decisions"),
    LEADER_GROUP(
            Group.REPLICAS,
            "leader.group",
            Kind.TEXT,
            "GROUP",
            "kcscale-<scaler.cluster.id>-leader",
            "the consumer group the replicas elect their leader in"),
    STATE_DIR(
            Group.REPLICAS,
            "state.dir",
            Kind.FILE,
            "DIR",
            "~/.kcscale",
            "where an earlier scaler kept autoscale policies: a policies file there is moved into the state topic once"),

    TOKEN(
            Group.CALLERS,
            "token",
            Kind.SECRET,
            "TOKEN",
            "none",
            "bearer token the mutating endpoints require; required to bind beyond loopback"),
    ALLOWED_ORIGINS(
            Group.CALLERS,
            "allowed.origins",
            Kind.LIST,
            "ORIGIN",
            "only the scaler's own page",
            "web origins (e.g. https://ops.example.com) whose pages may call the API"),
    ALLOWED_HOSTS(
            Group.CALLERS,
            "allowed.hosts",
            Kind.LIST,
            "NAME[:PORT]",
            "localhost and IP addresses",
            "names the API may be called by besides localhost and IP addresses (a compose service, a proxy)"),

    WORKER_CPU_SOURCE(
            Group.WORKER_CPU,
            "worker.cpu.source",
            Kind.TEXT,
            "SOURCE",
            "auto",
            "where worker-capacity reads the workers' CPU: auto (each worker from the first of exporter, prometheus, proc that"
                    + " reads it), exporter, prometheus or proc"),
    WORKER_METRICS_URLS(
            Group.WORKER_CPU,
            "worker.metrics.urls",
            Kind.LIST,
            "URL",
            "none",
            "each worker's JMX exporter: a template with {host} (and {port}, the worker's REST port), e.g."
                    + " http://{host}:9404/metrics, or WORKER=URL for one worker"),
    PROMETHEUS_URL(
            Group.WORKER_CPU,
            "prometheus.url",
            Kind.URL,
            "URL",
            "none",
            "a Prometheus server scraping the workers' exporters (it knows each by its exporter's host:port)"),

    KUBERNETES_NAMESPACE(
            Group.KUBERNETES,
            "kubernetes.namespace",
            Kind.TEXT,
            "NAMESPACE",
            "none",
            "scale a connector that a Strimzi KafkaConnector resource in this namespace manages through that resource"),
    KUBERNETES_KUBECONFIG(
            Group.KUBERNETES,
            "kubernetes.kubeconfig",
            Kind.FILE,
            "FILE",
            "the pod's service account, else $KUBECONFIG or ~/.kube/config",
            "Kubernetes credentials",
            "--kubeconfig"),
    KUBERNETES_CONNECT_CLUSTER(
            Group.KUBERNETES,
            "kubernetes.connect.cluster",
            Kind.TEXT,
            "NAME",
            "any",
            "the strimzi.io/cluster label of the KafkaConnect at connect.url: only its resources manage connectors here");

    /** Where a setting shows in {@code serve --help} and in the docs, in this order. */
    public enum Group {
        CONNECT("Kafka Connect"),
        KAFKA("Kafka"),
        SINK_CLUSTER("Elasticsearch"),
        TLS("TLS"),
        SAMPLING("Sampling and scaling"),
        REPLICAS("Replicas and their state"),
        CALLERS("The API's callers"),
        WORKER_CPU("Workers' CPU"),
        KUBERNETES("Kubernetes (Strimzi)");

        private final String title;

        Group(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /** What a value is: the checks {@link ScalerSettings} applies follow it. */
    public enum Kind {
        TEXT,
        URL,
        FILE,
        NUMBER,
        SECONDS,
        LIST,
        SECRET,
        /** Many keys under a prefix ({@code kafka.<property>}), one flag {@code NAME=VALUE} per key. */
        FAMILY
    }

    private final Group group;
    private final String key;
    private final Kind kind;
    private final String label;
    private final String defaults;
    private final String description;
    private final String flag;
    private final List<String> oldFlags;
    private final Optional<String> oldEnvironment;

    /** {@code old}: earlier spellings still read with a deprecation line, flags ({@code --...}) and an environment variable. */
    Setting(Group group, String key, Kind kind, String label, String defaults, String description, String... old) {
        this.group = group;
        this.key = key;
        this.kind = kind;
        this.label = label;
        this.defaults = defaults;
        this.description = description;
        String dashed = "--" + key.replace('.', '-');
        this.flag = kind == Kind.LIST ? dashed.substring(0, dashed.length() - 1) : dashed;
        this.oldFlags = Arrays.stream(old).filter(o -> o.startsWith("--")).toList();
        this.oldEnvironment =
                Arrays.stream(old).filter(o -> !o.startsWith("--")).findFirst();
    }

    /** A family of keys under {@code prefix}, given on the command line as {@code flag NAME=VALUE}. */
    Setting(Group group, String prefix, String flag, String label, String description) {
        this.group = group;
        this.key = prefix;
        this.kind = Kind.FAMILY;
        this.label = label;
        this.defaults = "none";
        this.description = description;
        this.flag = flag;
        this.oldFlags = List.of();
        this.oldEnvironment = Optional.empty();
    }

    public Group group() {
        return group;
    }

    /** The key in a settings file; for a family its prefix ({@code kafka.}). */
    public String key() {
        return key;
    }

    public Kind kind() {
        return kind;
    }

    public String flag() {
        return flag;
    }

    /** The flag's parameter, as {@code --help} shows it. */
    public String label() {
        return label;
    }

    /** The default, as the docs and {@code --help} say it. */
    public String defaults() {
        return defaults;
    }

    public String description() {
        return description;
    }

    public boolean secret() {
        return kind == Kind.SECRET;
    }

    /** Earlier spellings of the flag, read with a deprecation line (a secret's file flag follows its flag). */
    public List<String> oldFlags() {
        return oldFlags;
    }

    /** The environment variable a secret may come from; none for other settings. */
    public Optional<String> environment() {
        return secret() ? Optional.of("KCSCALE_" + key.toUpperCase(Locale.ROOT).replace('.', '_')) : Optional.empty();
    }

    /** An earlier name of that variable, read with a deprecation line. */
    public Optional<String> oldEnvironment() {
        return oldEnvironment;
    }

    /** A secret's file key ({@code token.file}). */
    public String fileKey() {
        return key + Secret.FILE_SUFFIX;
    }

    /** A secret's file flag ({@code --token-file}). */
    public String fileFlag() {
        return flag + "-file";
    }

    /** How the docs and messages name it: {@code kafka.bootstrap.servers (--kafka-bootstrap-servers)}. */
    public String named() {
        return (kind == Kind.FAMILY
                        ? key + "<" + label.substring(0, label.indexOf('=')).toLowerCase(Locale.ROOT) + ">"
                        : key)
                + " (" + flag + ")";
    }

    /** The setting a settings file's key belongs to: its own, a secret's file, or a family's member. */
    public static Optional<Setting> ofKey(String key) {
        for (Setting s : values()) {
            if (s.kind != Kind.FAMILY
                    && (s.key.equals(key) || s.secret() && s.fileKey().equals(key))) {
                return Optional.of(s);
            }
        }
        for (Setting s : values()) {
            if (s.kind == Kind.FAMILY && key.startsWith(s.key) && key.length() > s.key.length()) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The settings that name a pipeline: any of them makes serve observe one, and then all three are required. */
    public static List<Setting> pipeline() {
        return List.of(CONNECT_URL, KAFKA_BOOTSTRAP_SERVERS, ELASTICSEARCH_URL);
    }

    public static List<Setting> secrets() {
        return Arrays.stream(values()).filter(Setting::secret).toList();
    }
}
