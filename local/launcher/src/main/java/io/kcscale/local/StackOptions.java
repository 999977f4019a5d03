package io.kcscale.local;

import java.nio.file.Path;
import java.util.List;

/**
 * What a user asks {@code up} for. A port of 0 means "any free port" (what tests use).
 *
 * @param ratePerSecond total records/s from the source
 * @param iterations    records the source produces before it stops, or -1 for no end
 * @param sinkLatencyMs every request from the sink to Elasticsearch waits this long in a {@link SinkDelayProxy}, as
 *                      against a remote cluster; 0: the sink writes to Elasticsearch directly
 * @param sinkSerialMs  after that wait, every sink request holds the proxy's one shared lock this long, one request at
 *                      a time (a contended resource, as one hot shard): throughput bends as tasks are added; 0: none.
 *                      Needs {@code sinkLatencyMs} above 0, which starts the proxy
 * @param scaler        start the scaler service with the stack; experiments and benchmarks that run their own in
 *                      process leave it out: it would only wait to observe and take CPU from what they measure
 * @param commitIntervalMs the workers' {@code offset.flush.interval.ms}: how often a sink task commits its offsets.
 *                      Connect's default, 60 s, unless asked otherwise, so that the scaler reads the stack as it reads
 *                      production's workers
 * @param kafkaProxiedListeners listeners the broker has beyond its own, each reached through a proxy of the caller's
 */
public record StackOptions(
        Path home,
        Path dataDir,
        int kafkaPort,
        int controllerPort,
        int connectPort,
        int elasticsearchPort,
        int elasticsearchTransportPort,
        int scalerPort,
        int partitions,
        double ratePerSecond,
        String keyField,
        int shards,
        int sinkTasks,
        SinkMode sinkMode,
        int workers,
        long iterations,
        boolean fresh,
        MetricsOptions metrics,
        int sinkLatencyMs,
        int sinkSerialMs,
        boolean scaler,
        long commitIntervalMs,
        List<ProxiedKafkaListener> kafkaProxiedListeners) {

    public static final String TOPIC = "stocks";
    public static final String INDEX = "stocks";
    public static final String SOURCE_CONNECTOR = "stocks-datagen";
    public static final String SINK_CONNECTOR = "stocks-es-sink";

    /** Connect's own {@code offset.flush.interval.ms} default. */
    public static final long CONNECT_COMMIT_INTERVAL_MS = 60_000;
    /**
     * The commit intervals the scaler's readings are built for: from its 2 s samples (a commit a second moves the offsets
     * in every sample) to 5 minutes (its 10 minutes of commits then hold two, enough for an interval and a rate).
     */
    public static final long MIN_COMMIT_INTERVAL_MS = 1_000;

    public static final long MAX_COMMIT_INTERVAL_MS = 300_000;
    /**
     * What the lab's benchmarks and experiments run on, and the end-to-end tests that read rates within seconds: their
     * windows are shorter than Connect's minute, and their recorded figures were measured so.
     */
    public static final long QUICK_COMMIT_INTERVAL_MS = 1_000;

    public StackOptions {
        kafkaProxiedListeners = List.copyOf(kafkaProxiedListeners);
        require(partitions >= 1, "--partitions must be at least 1, got " + partitions);
        require(
                ratePerSecond > 0 && Double.isFinite(ratePerSecond),
                "--rate must be a positive number of records/s, got " + ratePerSecond);
        require(keyField != null && !keyField.isBlank(), "--keyfield must name a field of the record");
        require(shards >= 1 && shards <= 1024, "--shards must be between 1 and 1024, got " + shards);
        require(sinkTasks >= 1, "--sink-tasks must be at least 1, got " + sinkTasks);
        require(sinkMode != null, "--sink-mode must be set");
        require(workers >= 1 && workers <= 8, "--workers must be between 1 and 8, got " + workers);
        require(
                iterations == -1 || iterations >= 1,
                "--iterations must be -1 (no end) or at least 1, got " + iterations);
        require(metrics != null, "metrics options must be set");
        require(
                sinkLatencyMs >= 0 && sinkLatencyMs <= SinkDelayProxy.MAX_DELAY_MILLIS,
                "--sink-latency-ms must be from 0 to " + SinkDelayProxy.MAX_DELAY_MILLIS + ", got " + sinkLatencyMs);
        require(
                sinkSerialMs >= 0 && sinkSerialMs <= SinkDelayProxy.MAX_DELAY_MILLIS,
                "--sink-serial-ms must be from 0 to " + SinkDelayProxy.MAX_DELAY_MILLIS + ", got " + sinkSerialMs);
        require(
                sinkSerialMs == 0 || sinkLatencyMs > 0,
                "--sink-serial-ms needs --sink-latency-ms above 0: the latency proxy holds the lock");
        require(
                commitIntervalMs >= MIN_COMMIT_INTERVAL_MS && commitIntervalMs <= MAX_COMMIT_INTERVAL_MS,
                "--commit-interval-ms must be from " + MIN_COMMIT_INTERVAL_MS + " to " + MAX_COMMIT_INTERVAL_MS
                        + ", got " + commitIntervalMs);
        for (int port : new int[] {
            kafkaPort, controllerPort, connectPort, elasticsearchPort, elasticsearchTransportPort, scalerPort
        }) {
            require(port >= 0 && port <= 65535, "ports must be between 0 and 65535, got " + port);
        }
    }

    /** Options with the defaults of {@code ./kcscale up}, state under {@code home/data}. */
    public static Builder builder(Path home) {
        return new Builder(home);
    }

    /** Starts from the defaults; each setter replaces one. */
    public static final class Builder {
        private final Path home;
        private Path dataDir;
        private int kafkaPort = 9092;
        private int controllerPort = 9093;
        private int connectPort = 8083;
        private int elasticsearchPort = 9200;
        private int elasticsearchTransportPort = 9300;
        private int scalerPort = 8080;
        private int partitions = 20;
        private double ratePerSecond = 100;
        private String keyField = "price";
        private int shards = 1;
        private int sinkTasks = 1;
        private SinkMode sinkMode = SinkMode.INDEX;
        private int workers = 1;
        private long iterations = -1;
        private boolean fresh;
        private boolean metrics;
        private int metricsPort = 9404;
        private boolean prometheus;
        private int prometheusPort = 9090;
        private int sinkLatencyMs;
        private int sinkSerialMs;
        private boolean scaler = true;
        private long commitIntervalMs = CONNECT_COMMIT_INTERVAL_MS;
        private List<ProxiedKafkaListener> kafkaProxiedListeners = List.of();

        private Builder(Path home) {
            this.home = home;
            this.dataDir = home.resolve("data");
        }

        /** Every port 0: each component takes a free port (tests, parallel stacks). */
        public Builder freePorts() {
            kafkaPort = controllerPort = connectPort = elasticsearchPort = elasticsearchTransportPort = scalerPort = 0;
            metricsPort = prometheusPort = 0;
            return this;
        }

        public Builder dataDir(Path v) {
            dataDir = v;
            return this;
        }

        public Builder kafkaPort(int v) {
            kafkaPort = v;
            return this;
        }

        public Builder controllerPort(int v) {
            controllerPort = v;
            return this;
        }

        public Builder connectPort(int v) {
            connectPort = v;
            return this;
        }

        public Builder elasticsearchPort(int v) {
            elasticsearchPort = v;
            return this;
        }

        public Builder elasticsearchTransportPort(int v) {
            elasticsearchTransportPort = v;
            return this;
        }

        public Builder scalerPort(int v) {
            scalerPort = v;
            return this;
        }

        public Builder partitions(int v) {
            partitions = v;
            return this;
        }

        public Builder ratePerSecond(double v) {
            ratePerSecond = v;
            return this;
        }

        public Builder keyField(String v) {
            keyField = v;
            return this;
        }

        public Builder shards(int v) {
            shards = v;
            return this;
        }

        public Builder sinkTasks(int v) {
            sinkTasks = v;
            return this;
        }

        public Builder sinkMode(SinkMode v) {
            sinkMode = v;
            return this;
        }

        public Builder workers(int v) {
            workers = v;
            return this;
        }

        public Builder iterations(long v) {
            iterations = v;
            return this;
        }

        public Builder fresh(boolean v) {
            fresh = v;
            return this;
        }

        public Builder metrics(boolean v) {
            metrics = v;
            return this;
        }

        public Builder metricsPort(int v) {
            metricsPort = v;
            return this;
        }

        public Builder prometheus(boolean v) {
            prometheus = v;
            return this;
        }

        public Builder prometheusPort(int v) {
            prometheusPort = v;
            return this;
        }

        public Builder sinkLatencyMs(int v) {
            sinkLatencyMs = v;
            return this;
        }

        public Builder sinkSerialMs(int v) {
            sinkSerialMs = v;
            return this;
        }

        public Builder scaler(boolean v) {
            scaler = v;
            return this;
        }

        public Builder commitIntervalMs(long v) {
            commitIntervalMs = v;
            return this;
        }

        public Builder kafkaProxiedListeners(List<ProxiedKafkaListener> v) {
            kafkaProxiedListeners = v;
            return this;
        }

        /** @throws IllegalArgumentException naming the flag of the first bad value */
        public StackOptions build() {
            return new StackOptions(
                    home,
                    dataDir,
                    kafkaPort,
                    controllerPort,
                    connectPort,
                    elasticsearchPort,
                    elasticsearchTransportPort,
                    scalerPort,
                    partitions,
                    ratePerSecond,
                    keyField,
                    shards,
                    sinkTasks,
                    sinkMode,
                    workers,
                    iterations,
                    fresh,
                    new MetricsOptions(metrics, metricsPort, prometheus, prometheusPort),
                    sinkLatencyMs,
                    sinkSerialMs,
                    scaler,
                    commitIntervalMs,
                    kafkaProxiedListeners);
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
