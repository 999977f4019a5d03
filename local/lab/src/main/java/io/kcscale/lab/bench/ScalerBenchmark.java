package io.kcscale.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.lab.experiment.Machine;
import io.kcscale.lab.experiment.Pause;
import io.kcscale.lab.experiment.Percentiles;
import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.poll.Poll;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;

/**
 * What the scaler costs as the pipeline grows, on a stack of its own: its two connectors are removed, then
 * point after point adds sink connectors (Kafka's FileStreamSink, which costs little; every third one reads
 * several topics, by a {@code topics.regex} or a {@code topics} list, the rest one topic each) and a steady low
 * load over every partition; per point, once each connector's task runs and the scaler's rounds
 * sample them all, the round's duration, the scaler's CPU and heap are read from its {@code /metrics} over a
 * window, then {@code GET /api/v1/connectors} is timed.
 */
public final class ScalerBenchmark {

    /** The stack's scaler samples at its default interval. */
    public static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(2);

    static final String TOPIC_PREFIX = "bench-scaler-";
    private static final String FILE_SINK = "org.apache.kafka.connect.file.FileStreamSinkConnector";
    private static final Duration SCRAPE_EVERY = Duration.ofSeconds(10);
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration ADMIN_REQUEST_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration CONNECT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final int PARTITIONS_PER_REQUEST = 2_000;
    /** What a component's log says when it ran out of a resource of the machine's (not the JVM flag of the name). */
    private static final Pattern OUT_OF =
            Pattern.compile("Too many open files|java\\.lang\\.OutOfMemoryError|Map failed|No space left");
    /** The processes whose exit ends a point, and whose logs may say why. */
    private static final List<String> LOGS_OF_THE_STACK = List.of("kafka", "connect-0", "scaler");

    /** C sink connectors reading P partitions in all; the sinks a point adds share the partitions it adds. */
    public record Point(int connectors, int partitions) {

        /** Parses {@code CxP}, e.g. {@code 10x500}. */
        public static Point parse(String text) {
            String[] parts = text.strip().toLowerCase(Locale.ROOT).split("x");
            try {
                if (parts.length == 2) {
                    return new Point(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
                }
            } catch (NumberFormatException e) {
                // the message below says what a point looks like
            }
            throw new IllegalArgumentException("a point is CONNECTORSxPARTITIONS, e.g. 10x500, got " + text);
        }
    }

    static final int MAX_CONNECTORS = 1_000;
    static final int MAX_PARTITIONS = 50_000;
    /** A sink reads at most this many topics, so each sink needs as many partitions at least. */
    static final int MAX_TOPICS_PER_SINK = 3;

    /**
     * @param points        connectors and partitions growing from point to point
     * @param window        how long each point's figures are measured over
     * @param apiRequests   {@code GET /api/v1/connectors} timed per point, one at a time
     * @param loadPerSecond records/s over every partition
     */
    public record Settings(
            Path home,
            Path dataDir,
            List<Point> points,
            Duration window,
            int apiRequests,
            double loadPerSecond,
            Duration setupTimeout) {

        public Settings {
            if (points.isEmpty()) {
                throw new IllegalArgumentException("--points needs at least one point");
            }
            Point previous = new Point(0, 0);
            for (Point p : points) {
                if (p.connectors() < 1 || p.connectors() > MAX_CONNECTORS || p.partitions() > MAX_PARTITIONS) {
                    throw new IllegalArgumentException(String.format(
                            Locale.ROOT,
                            "point %dx%d: 1 to %,d connectors and at most %,d partitions",
                            p.connectors(),
                            p.partitions(),
                            MAX_CONNECTORS,
                            MAX_PARTITIONS));
                }
                int added = p.connectors() - previous.connectors();
                if (added < 1 || p.partitions() - previous.partitions() < MAX_TOPICS_PER_SINK * added) {
                    throw new IllegalArgumentException(String.format(
                            Locale.ROOT,
                            "point %dx%d after %dx%d: each point adds connectors, and at least %d partitions for"
                                    + " each connector it adds",
                            p.connectors(),
                            p.partitions(),
                            previous.connectors(),
                            previous.partitions(),
                            MAX_TOPICS_PER_SINK));
                }
                previous = p;
            }
            if (window.toSeconds() < 2 * SAMPLE_INTERVAL.toSeconds() || apiRequests < 1 || !(loadPerSecond > 0)) {
                throw new IllegalArgumentException("the window must span at least two sample intervals ("
                        + 2 * SAMPLE_INTERVAL.toSeconds() + " s), and the API requests and the load must be positive");
            }
        }
    }

    private final Settings settings;
    private final Consumer<String> progress;
    private final LocalStack stack;
    private final ConnectRestClient connect;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();
    private final List<TopicPartition> loaded = new ArrayList<>();
    /** Each benchmark sink's partitions, over all its topics: what the scaler must show for it to be whole. */
    private final Map<String, Integer> partitionsOf = new HashMap<>();

    private boolean noJcmd;

    private int topics;

    private ScalerBenchmark(Settings settings, Consumer<String> progress, LocalStack stack) {
        this.settings = settings;
        this.progress = progress;
        this.stack = stack;
        // a worker running hundreds of sink tasks on a loaded machine can take longer than the client's default 10 s
        this.connect = new ConnectRestClient(stack.endpoints().connectUrl(), CONNECT_REQUEST_TIMEOUT, Backoff.DEFAULT);
    }

    /** Starts the stack, measures every point, and stops the stack whatever happens. */
    public static ScalerBenchResult run(Settings settings, Consumer<String> progress) {
        long started = System.nanoTime();
        StackOptions options = StackOptions.builder(settings.home())
                .dataDir(settings.dataDir())
                .freePorts()
                .fresh(true)
                .workers(1)
                .partitions(1)
                .sinkTasks(1)
                .sinkMode(SinkMode.INDEX)
                .ratePerSecond(1)
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .build();
        try (LocalStack stack = LocalStack.start(options, progress);
                SteadyLoad load = new SteadyLoad(stack.endpoints().kafkaBootstrap(), settings.loadPerSecond());
                Admin admin = Admin.create(Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.endpoints().kafkaBootstrap(),
                        // thousands of partitions at once take a loaded broker longer than the default minute
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        (int) settings.setupTimeout().toMillis(),
                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        (int) Math.min(settings.setupTimeout().toMillis(), ADMIN_REQUEST_TIMEOUT.toMillis())))) {
            ScalerBenchmark bench = new ScalerBenchmark(settings, progress, stack);
            // the scaler is to watch the benchmark's sinks alone
            bench.connect.deleteConnector(StackOptions.SOURCE_CONNECTOR);
            bench.connect.deleteConnector(StackOptions.SINK_CONNECTOR);
            List<ScalerBenchResult.Point> points = new ArrayList<>();
            ScalerBenchResult.Stop stop = null;
            Point before = new Point(0, 0);
            for (Point point : settings.points()) {
                try {
                    bench.grow(admin, before, point);
                    points.add(bench.measure(point, load));
                } catch (RuntimeException e) {
                    // how far one broker here goes is part of the answer: the points measured stand
                    stop = new ScalerBenchResult.Stop(
                            point.connectors(), point.partitions(), e.getMessage() + bench.outOf());
                    progress.accept(String.format(
                            Locale.ROOT,
                            "stopped at %dx%d: %s",
                            point.connectors(),
                            point.partitions(),
                            stop.reason()));
                    break;
                }
                before = point;
            }
            return new ScalerBenchResult(
                    SAMPLE_INTERVAL.toMillis() / 1000.0,
                    settings.loadPerSecond(),
                    settings.window().toSeconds(),
                    points,
                    !points.isEmpty() && points.stream().allMatch(ScalerBenchResult.Point::withinInterval),
                    fit(points, ScalerBenchResult.Point::cpuMsPerRound),
                    fit(points, ScalerBenchResult.Point::roundP50Ms),
                    fit(points, p -> p.heapLiveMb() == null ? Double.NaN : p.heapLiveMb()),
                    stop,
                    Machine.describe(),
                    Math.round((System.nanoTime() - started) / 1e8) / 10.0);
        }
    }

    private static CostFit fit(List<ScalerBenchResult.Point> points, ToDoubleFunction<ScalerBenchResult.Point> cost) {
        return CostFit.of(points.stream()
                        .map(p -> new CostFit.Sample(p.connectors(), p.partitions(), cost.applyAsDouble(p)))
                        .toList())
                .orElse(null);
    }

    /** Each component's last word on what it lacked (file handles, memory maps, heap, disk), if its log has one. */
    private String outOf() {
        StringBuilder said = new StringBuilder();
        for (String component : LOGS_OF_THE_STACK) {
            Path log = settings.dataDir().resolve("logs").resolve(component + ".log");
            try (Stream<String> lines = Files.lines(log)) {
                lines.filter(l -> OUT_OF.matcher(l).find())
                        .reduce((first, second) -> second)
                        .ifPresent(l -> said.append("; ")
                                .append(component)
                                .append("'s log: ")
                                .append(l.strip(), 0, Math.min(l.strip().length(), 300)));
            } catch (IOException | UncheckedIOException e) {
                // a component without a log, or one unreadable, has nothing to add
            }
        }
        return said.toString();
    }

    /**
     * Adds the connectors from {@code before}'s to {@code point}'s, sharing the partitions added evenly, each
     * sink's partitions spread evenly over its topics (see {@link #topicsOf}).
     */
    private void grow(Admin admin, Point before, Point point) {
        int added = point.connectors() - before.connectors();
        int addedPartitions = point.partitions() - before.partitions();
        progress.accept(String.format(
                Locale.ROOT,
                "%d sink connectors over %,d partitions: creating %d connectors over %,d partitions",
                point.connectors(),
                point.partitions(),
                added,
                addedPartitions));
        Map<Integer, List<NewTopic>> sinks = new LinkedHashMap<>();
        for (int i = 0; i < added; i++) {
            int c = before.connectors() + i;
            int partitions = addedPartitions / added + (i < addedPartitions % added ? 1 : 0);
            List<String> names = topicsOf(c);
            List<NewTopic> own = new ArrayList<>();
            for (int t = 0; t < names.size(); t++) {
                int share = partitions / names.size() + (t < partitions % names.size() ? 1 : 0);
                own.add(new NewTopic(names.get(t), share, (short) 1));
            }
            sinks.put(c, own);
            partitionsOf.put(name(c), partitions);
        }
        List<NewTopic> all = sinks.values().stream().flatMap(List::stream).toList();
        createTopics(admin, all);
        // a sink task whose partitions have no leader yet fails after its consumer's 60 s: a loaded broker takes that
        // long
        List<String> names = all.stream().map(NewTopic::name).toList();
        awaitTrue(
                "every new partition to have a leader",
                settings.setupTimeout(),
                Duration.ofSeconds(1),
                () -> leaderless(admin, names) == 0,
                () -> leaderless(admin, names) + " partitions without a leader");
        for (Map.Entry<Integer, List<NewTopic>> sink : sinks.entrySet()) {
            int c = sink.getKey();
            Map<String, String> config = new HashMap<>(Map.of(
                    "connector.class",
                    FILE_SINK,
                    "tasks.max",
                    "1",
                    "file",
                    settings.dataDir().resolve(name(c) + ".txt").toString(),
                    "key.converter",
                    "org.apache.kafka.connect.storage.StringConverter",
                    "value.converter",
                    "org.apache.kafka.connect.storage.StringConverter"));
            List<String> own = sink.getValue().stream().map(NewTopic::name).toList();
            if (own.size() == MAX_TOPICS_PER_SINK) {
                config.put("topics.regex", name(c) + "-t[0-9]+");
            } else {
                config.put("topics", String.join(",", own));
            }
            // the same PUT again is harmless: a worker busy rebalancing hundreds of tasks may let one time out
            await("Connect to accept " + name(c), settings.setupTimeout(), Duration.ofSeconds(2), () -> {
                connect.putConnectorConfig(name(c), config);
                return Optional.of(true);
            });
            for (NewTopic t : sink.getValue()) {
                for (int p = 0; p < t.numPartitions(); p++) {
                    loaded.add(new TopicPartition(t.name(), p));
                }
            }
            topics += own.size();
        }
    }

    /**
     * Sink {@code c}'s topics: every third sink reads several, alternately three by a {@code topics.regex} (from
     * the first sink on, so {@code --quick}'s one sink has it) and two by a {@code topics} list; the rest one each.
     */
    static List<String> topicsOf(int c) {
        int several = c % 6 == 0 ? MAX_TOPICS_PER_SINK : c % 3 == 0 ? 2 : 1;
        if (several == 1) {
            return List.of(name(c));
        }
        List<String> names = new ArrayList<>();
        for (int t = 0; t < several; t++) {
            names.add(name(c) + "-t" + t);
        }
        return names;
    }

    /** In requests of a bounded number of partitions each, so that none waits on thousands at once. */
    private void createTopics(Admin admin, List<NewTopic> topics) {
        List<NewTopic> batch = new ArrayList<>();
        int partitions = 0;
        for (int i = 0; i < topics.size(); i++) {
            batch.add(topics.get(i));
            partitions += topics.get(i).numPartitions();
            if (partitions >= PARTITIONS_PER_REQUEST || i == topics.size() - 1) {
                try {
                    admin.createTopics(batch).all().get(settings.setupTimeout().toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while creating topics", e);
                } catch (ExecutionException | TimeoutException e) {
                    throw new IllegalStateException(
                            "cannot create the benchmark's topics beyond " + loaded.size() + " partitions: "
                                    + e.getMessage(),
                            e);
                }
                batch = new ArrayList<>();
                partitions = 0;
            }
        }
    }

    private ScalerBenchResult.Point measure(Point point, SteadyLoad load) {
        awaitTrue(
                "every benchmark connector's task to run",
                settings.setupTimeout(),
                Duration.ofSeconds(1),
                () -> runningTasks() == point.connectors(),
                () -> runningTasks() + " of " + point.connectors() + " tasks RUNNING");
        // once the tasks run, the new topics' leaders are long known: the producer does not chase them
        load.spread(loaded);
        awaitTrue(
                "the scaler to observe every connector whole",
                settings.setupTimeout(),
                Duration.ofSeconds(2),
                () -> observedWhole() == point.connectors(),
                () -> observedWhole() + " of " + point.connectors()
                        + " observed, not degraded, every partition's lag known");
        // rounds that began before the last connector was known do not count
        ScalerScrape all = await(
                "the scaler's rounds to sample " + point.connectors() + " connectors",
                settings.setupTimeout(),
                Duration.ofSeconds(1),
                () -> Optional.of(scrape()).filter(s -> s.roundConnectors() == point.connectors()));
        ScalerScrape start = await(
                "one more round",
                settings.setupTimeout(),
                Duration.ofMillis(500),
                () -> Optional.of(scrape()).filter(s -> s.rounds() > all.rounds()));
        progress.accept(String.format(
                Locale.ROOT, "measuring the scaler over %d s", settings.window().toSeconds()));
        long end = start.atNanos() + settings.window().toNanos();
        Long heap = start.heapAfterGc();
        ScalerScrape last = start;
        while (System.nanoTime() < end) {
            Pause.until(Math.min(end, System.nanoTime() + SCRAPE_EVERY.toNanos()));
            last = scrape();
            if (last.heapAfterGc() != null) {
                heap = heap == null ? last.heapAfterGc() : Math.max(heap, last.heapAfterGc());
            }
        }
        ScalerScrape.Window window = start.until(last);
        if (runningTasks() != point.connectors()) {
            throw new IllegalStateException(
                    "a sink task stopped running in the window (" + runningTasks() + " of " + point.connectors()
                            + " RUNNING): the figures would not be those of " + point.connectors() + " running sinks");
        }
        double[] api = timeConnectorsList(point.connectors());
        Percentiles apiMs = new Percentiles(api);
        Long live = liveHeap();
        ScalerBenchResult.Point result = new ScalerBenchResult.Point(
                point.connectors(),
                point.partitions(),
                topics,
                window.rounds(),
                ms(window.roundMeanSeconds()),
                ms(window.roundP50Seconds()),
                ms(window.roundP99Seconds()),
                window.roundP99Seconds() < SAMPLE_INTERVAL.toMillis() / 1000.0,
                round1(100 * window.cpuShare()),
                window.rounds() == 0 ? Double.NaN : ms(window.cpuShare() * window.seconds() / window.rounds()),
                heap == null ? null : round1(heap / 1048576.0),
                live == null ? null : round1(live / 1048576.0),
                round1(last.heapMax() / 1048576.0),
                api.length,
                round1(apiMs.at(0.5)),
                round1(apiMs.at(0.99)),
                Machine.loadAverage());
        progress.accept(String.format(
                Locale.ROOT,
                "  %d rounds, p50 %.1f ms, p99 %.1f ms; CPU %.1f%% of a core; heap after GC %s MB, live %s MB;"
                        + " GET /api/v1/connectors p99 %.1f ms",
                result.rounds(),
                result.roundP50Ms(),
                result.roundP99Ms(),
                result.cpuPercentOfCore(),
                result.heapUsedAfterGcMb(),
                result.heapLiveMb(),
                result.apiP99Ms()));
        return result;
    }

    private static long leaderless(Admin admin, List<String> topics) {
        try {
            return admin
                    .describeTopics(topics)
                    .allTopicNames()
                    .get(HTTP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .values()
                    .stream()
                    .flatMap(t -> t.partitions().stream())
                    .filter(p -> p.leader() == null || p.leader().isEmpty())
                    .count();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe the benchmark's topics: " + e.getMessage(), e);
        }
    }

    /** Benchmark connectors the scaler's latest snapshots show whole: not degraded, a lag for each of their partitions. */
    private long observedWhole() {
        try {
            long whole = 0;
            for (JsonNode c : JSON.readTree(get("/api/v1/connectors"))) {
                Integer partitions = partitionsOf.get(c.path("name").asText());
                whole += partitions != null
                                && !c.path("degraded").asBoolean(true)
                                && lagKnown(c.path("lag").path("partitions")) == partitions
                        ? 1
                        : 0;
            }
            return whole;
        } catch (IOException e) {
            throw new IllegalStateException("GET /api/v1/connectors answered what is not JSON: " + e.getMessage(), e);
        }
    }

    /** As {@link Poll#until}, giving up at once when a process of the stack has exited: the state cannot come. */
    private <T> T await(String what, Duration timeout, Duration interval, Supplier<Optional<T>> probe) {
        return Poll.until(what, timeout, interval, () -> {
            for (String component : LOGS_OF_THE_STACK) {
                if (!stack.component(component).isAlive()) {
                    throw new Poll.Abort("the stack's " + component + " process exited");
                }
            }
            return probe.get();
        });
    }

    private void awaitTrue(
            String what, Duration timeout, Duration interval, Supplier<Boolean> condition, Supplier<String> describe) {
        await(what, timeout, interval, () -> {
            if (condition.get()) {
                return Optional.of(Boolean.TRUE);
            }
            throw new IllegalStateException(describe.get());
        });
    }

    /** The entries, each keyed by topic and partition, whose lag in records is known. */
    private static long lagKnown(JsonNode partitions) {
        long known = 0;
        for (JsonNode p : partitions) {
            known += p.path("topic").isTextual() && p.path("records").isNumber() ? 1 : 0;
        }
        return known;
    }

    private long runningTasks() {
        return connect.connectorsExpanded().values().stream()
                .filter(v -> v.name().startsWith(TOPIC_PREFIX)
                        && "RUNNING".equals(v.status().state()))
                .mapToLong(v -> v.status().tasksInState("RUNNING"))
                .sum();
    }

    /**
     * The scaler's heap after a full collection the benchmark asks for ({@code jcmd PID GC.run}), once the point
     * is measured: its live data, where the most seen after GCs in the window also holds what young collections
     * left behind. Null, said once, when this JVM has no {@code jcmd} (a runtime without the JDK's tools).
     */
    private Long liveHeap() {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            if (!noJcmd) {
                noJcmd = true;
                progress.accept("no " + jcmd + ": the scaler's live heap is not measured");
            }
            return null;
        }
        long pid = stack.component("scaler").pid();
        try {
            Process gc = new ProcessBuilder(jcmd.toString(), String.valueOf(pid), "GC.run")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!gc.waitFor(HTTP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                gc.destroyForcibly();
                throw new IllegalStateException(
                        "jcmd " + pid + " GC.run did not end within " + HTTP_TIMEOUT.toSeconds() + " s");
            }
            if (gc.exitValue() != 0) {
                throw new IllegalStateException("jcmd " + pid + " GC.run exited with " + gc.exitValue());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + jcmd + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the scaler collected its garbage", e);
        }
        return scrape().heapAfterGc();
    }

    private ScalerScrape scrape() {
        return ScalerScrape.parse(System.nanoTime(), get("/metrics"));
    }

    /** Each request's milliseconds; the last answer must list every benchmark connector. */
    private double[] timeConnectorsList(int connectors) {
        double[] ms = new double[settings.apiRequests()];
        String body = null;
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            body = get("/api/v1/connectors");
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        int listed = 0;
        try {
            for (JsonNode c : JSON.readTree(body)) {
                listed += c.path("name").asText().startsWith(TOPIC_PREFIX) ? 1 : 0;
            }
        } catch (IOException e) {
            throw new IllegalStateException("GET /api/v1/connectors answered what is not JSON: " + e.getMessage(), e);
        }
        if (listed != connectors) {
            throw new IllegalStateException(
                    "GET /api/v1/connectors listed " + listed + " benchmark connectors, not " + connectors);
        }
        return ms;
    }

    /**
     * The scaler closes a connection idle for its request timeout (10 s) while a point's sinks are set up; a GET sent on
     * it as it closes gets no answer, so it is asked twice.
     */
    private String get(String path) {
        return PageGet.text(http, stack.endpoints().scalerUrl().resolve(path), HTTP_TIMEOUT, 2);
    }

    static String name(int connector) {
        return String.format(Locale.ROOT, TOPIC_PREFIX + "%03d", connector);
    }

    private static double ms(double seconds) {
        return round1(seconds * 1000);
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
