package io.kcscale.scaler.service;

import io.kcscale.scaler.common.Secret;
import io.kcscale.scaler.kubernetes.KubernetesSettings;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;
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

/**
 * How the scaler reaches a pipeline, and its limits. Read from a properties file ({@code --config})
 * whose keys are the {@link Setting}s'; the environment and command-line flags override the file.
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
        int taskCap,
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

    public ScalerSettings {
        require(connectUrl != null, Setting.CONNECT_URL.named() + " is required");
        require(
                bootstrapServers != null && !bootstrapServers.isBlank(),
                Setting.KAFKA_BOOTSTRAP_SERVERS.named() + " is required");
        require(elasticsearchUrl != null, Setting.ELASTICSEARCH_URL.named() + " is required");
        require(taskCap >= 1, Setting.TASK_CAP.named() + " must be at least 1, got " + taskCap);
        require(
                !window.isNegative() && window.toMillis() >= 2 * sampleInterval.toMillis(),
                Setting.WINDOW_SECONDS.named() + " must span at least two sample intervals");
        require(sampleInterval.toMillis() >= 100, Setting.SAMPLE_INTERVAL_SECONDS.named() + " must be at least 0.1");
        require(
                !convergeTimeout.isNegative() && !convergeTimeout.isZero(),
                Setting.CONVERGE_TIMEOUT_SECONDS.named() + " must be positive");
        require(
                connectWorkerConfig.isEmpty() || Files.isReadable(connectWorkerConfig.get()),
                Setting.CONNECT_WORKER_CONFIG.named() + " must be a readable file, got "
                        + connectWorkerConfig.orElse(null));
    }

    /**
     * Settings from key → value (a file's keys, with flags laid over them).
     *
     * @throws IllegalArgumentException naming the key of the first bad or missing value
     */
    public static ScalerSettings fromValues(Map<String, String> v) {
        return new ScalerSettings(
                uri(v, Setting.CONNECT_URL),
                v.get(Setting.KAFKA_BOOTSTRAP_SERVERS.key()),
                uri(v, Setting.ELASTICSEARCH_URL),
                authorization(
                        v.get(Setting.CONNECT_USERNAME.key()),
                        secret(v, Setting.CONNECT_PASSWORD).orElse(null),
                        null),
                authorization(
                        v.get(Setting.ELASTICSEARCH_USERNAME.key()),
                        secret(v, Setting.ELASTICSEARCH_PASSWORD).orElse(null),
                        secret(v, Setting.ELASTICSEARCH_API_KEY).orElse(null)),
                kafkaClientProperties(v),
                Optional.ofNullable(v.get(Setting.TLS_TRUSTSTORE.key())).map(Path::of),
                secret(v, Setting.TLS_TRUSTSTORE_PASSWORD).orElse(null),
                (int) number(v, Setting.TASK_CAP),
                seconds(v, Setting.WINDOW_SECONDS),
                seconds(v, Setting.SAMPLE_INTERVAL_SECONDS),
                seconds(v, Setting.CONVERGE_TIMEOUT_SECONDS),
                secret(v, Setting.TOKEN),
                Path.of(v.getOrDefault(
                        Setting.STATE_DIR.key(),
                        Path.of(System.getProperty("user.home"), ".kcscale").toString())),
                seconds(v, Setting.AUTOSCALE_INTERVAL_SECONDS),
                rebalanceDelay(v),
                Optional.ofNullable(v.get(Setting.CONNECT_WORKER_CONFIG.key()))
                        .filter(f -> !f.isBlank())
                        .map(Path::of),
                SinkIndexes.of(indexes(v)),
                KubernetesSettings.fromValues(v),
                v.getOrDefault(Setting.STATE_TOPIC.key(), "kcscale-" + clusterId(v) + "-state"),
                v.getOrDefault(Setting.LEADER_GROUP.key(), "kcscale-" + clusterId(v) + "-leader"),
                WorkerCpuSettings.fromValues(v));
    }

    /** Default {@code default}: replicas that name none share one state topic and one leader. */
    private static String clusterId(Map<String, String> v) {
        String id = v.getOrDefault(Setting.SCALER_CLUSTER_ID.key(), Setting.SCALER_CLUSTER_ID.defaults())
                .strip();
        require(
                id.matches("[A-Za-z0-9._-]{1,100}"),
                Setting.SCALER_CLUSTER_ID.named() + " must be 1 to 100 letters, digits, '.', '_' or '-', got " + id);
        return id;
    }

    /** Connect's own default, 5 minutes: a worker group that sets none waits this long. */
    public static final Duration DEFAULT_REBALANCE_DELAY =
            Duration.ofSeconds(Long.parseLong(Setting.REBALANCE_DELAY_SECONDS.defaults()));
    /** A day: beyond it a value is a mistake (say, milliseconds given as seconds). */
    private static final long MAX_REBALANCE_DELAY_SECONDS = 86_400;

    /** {@code rebalance.delay.seconds}: 0 too, since Connect allows it (it then reassigns at once). */
    private static Duration rebalanceDelay(Map<String, String> v) {
        String value = v.get(Setting.REBALANCE_DELAY_SECONDS.key());
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
            throw new IllegalArgumentException(Setting.REBALANCE_DELAY_SECONDS.named()
                    + " must be a number of seconds from 0 to " + MAX_REBALANCE_DELAY_SECONDS
                    + " (the workers' scheduled.rebalance.max.delay.ms / 1000), got " + value);
        }
    }

    private static URI uri(Map<String, String> v, Setting setting) {
        String value = v.get(setting.key());
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            URI uri = URI.create(value.trim());
            if (uri.getHost() == null
                    || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    setting.named() + " must be an http(s) URL with a host, e.g. http://127.0.0.1:8083; got " + value);
        }
    }

    /** A positive number, else the setting's default. */
    private static double number(Map<String, String> v, Setting setting) {
        String value = v.get(setting.key());
        if (value == null || value.isBlank()) {
            return Double.parseDouble(setting.defaults());
        }
        try {
            double d = Double.parseDouble(value.trim());
            if (!Double.isFinite(d) || d <= 0) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting.named() + " must be a positive number, got " + value);
        }
    }

    private static Duration seconds(Map<String, String> v, Setting setting) {
        return Duration.ofMillis(Math.round(number(v, setting) * 1000));
    }

    private static Optional<String> secret(Map<String, String> v, Setting setting) {
        return Secret.of(v, setting.key());
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
            if (Setting.ofKey(key).isEmpty()) {
                throw new IllegalArgumentException(
                        "unknown key " + key + " in " + file + "; the keys are listed by kcscale serve --help");
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
                + ", truststorePassword=" + hidden(Optional.ofNullable(truststorePassword)) + ", taskCap=" + taskCap
                + ", window=" + window + ", sampleInterval=" + sampleInterval + ", convergeTimeout=" + convergeTimeout
                + ", token=" + hidden(token) + ", stateDir=" + stateDir + ", autoscaleInterval=" + autoscaleInterval
                + ", rebalanceDelay=" + rebalanceDelay
                + ", connectWorkerConfig=" + connectWorkerConfig + ", indexes=" + indexes.named() + ", kubernetes="
                + kubernetes
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
            if (Setting.ofKey(k).equals(Optional.of(Setting.INDEX))) {
                indexes.put(k.substring(Setting.INDEX.key().length()), v);
            }
        });
        return indexes;
    }

    /** The Kafka client properties among {@code kafka.*} keys, without the prefix. */
    public static Map<String, String> kafkaClientProperties(Map<String, String> values) {
        Map<String, String> kafka = new TreeMap<>();
        values.forEach((k, v) -> {
            if (Setting.ofKey(k).equals(Optional.of(Setting.KAFKA_PROPERTY))) {
                kafka.put(k.substring(Setting.KAFKA_PROPERTY.key().length()), v);
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
