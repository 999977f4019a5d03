package io.kcscale.lab.bench;

import io.kcscale.lab.experiment.DatagenSource;
import io.kcscale.local.LocalStack;
import io.kcscale.local.Offsets;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchReadingsClient;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Measures, on a stack of its own (one worker, free ports), one task of each connector at full
 * speed: the datagen source unthrottled, then the sink per-record and in bulk mode draining the same
 * backlog, each into an index of its own, and Elasticsearch's raw bulk rate (the ceiling). Only one
 * thing runs at a time, so no phase competes with another for the cores; the bulk sink and the raw
 * load take turns in short slices, so their ratio holds even when other work shares the machine.
 */
public final class ConnectorBenchmark {

    private static final String RAW_INDEX = "bench-raw";
    private static final String PER_RECORD_INDEX = "bench-index";
    private static final String BULK_INDEX = "bench-bulk";
    /** The bulk sink's setting of requests in flight; its config template holds the default. */
    private static final String IN_FLIGHT = "kcscale.bulk.max.in.flight.requests";
    /** Above what raw _bulk reached on two cores (about 80,000 docs/s): records read for the raw load's turns. */
    private static final long RAW_DOCUMENTS_PER_SECOND = 100_000;

    private static final int SLICES = 3;
    private static final String ELASTICSEARCH = "elasticsearch";
    private static final String WORKER = "worker";
    private static final String BENCHMARK = "benchmark";
    /** Above what one bulk sink task reached on two cores: the backlog lets it run that fast throughout. */
    private static final long BACKLOG_PER_SECOND = 120_000;

    private static final Duration BACKLOG_TIMEOUT = Duration.ofMinutes(5);
    /** One scrape of the worker's exporter, which reads every bean it exports. */
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(10);
    /** A paused sink may still send the batch its aggregator held: it completes within timeout + 1 s. */
    private static final Duration SINK_SETTLE = Duration.ofSeconds(2);

    private final LocalStack stack;
    private final RateMeter meter;
    private final Consumer<String> progress;
    private final ConnectRestClient connect;
    private final DatagenSource source;
    private final KafkaReadingsClient kafka;
    private final ElasticsearchConnection elasticsearch;
    private final List<String> notes = new ArrayList<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(SCRAPE_TIMEOUT).build();

    private ConnectorBenchmark(LocalStack stack, RateMeter meter, Consumer<String> progress) {
        this.stack = stack;
        this.meter = meter;
        this.progress = progress;
        this.connect = new ConnectRestClient(stack.endpoints().connectUrl());
        this.source = new DatagenSource(new ConnectorChange(connect, Duration.ofSeconds(120)), this::recordsInTopic);
        this.kafka = new KafkaReadingsClient(stack.endpoints().kafkaBootstrap(), Map.of(), Duration.ofSeconds(10));
        this.elasticsearch = new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 60_000);
    }

    /** Starts a fresh stack in {@code dataDir}, measures, stops it. */
    public static ConnectorBenchResult run(
            Path home, Path dataDir, Duration warmup, Duration window, Consumer<String> progress) {
        StackOptions options = StackOptions.builder(home)
                .dataDir(dataDir)
                .freePorts()
                .fresh(true)
                .workers(1)
                // the worker's exporter publishes the bulk task's request trace, read at each turn
                .metrics(true)
                .scaler(false)
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .build();
        try (LocalStack stack = LocalStack.start(options, progress)) {
            ConnectorBenchmark bench = new ConnectorBenchmark(stack, new RateMeter(warmup, window), progress);
            try {
                return bench.measure();
            } finally {
                bench.close();
            }
        }
    }

    private ConnectorBenchResult measure() {
        // the stack's own sink would compete with every phase; each sink phase makes a connector of its own
        connect.deleteConnector(StackOptions.SINK_CONNECTOR);
        double loadBefore = systemLoad();
        double datagen = datagenUnthrottled();
        // each sink drains the backlog from its start for a warm-up, a window and the turns in between
        fillBacklog(BACKLOG_PER_SECOND
                * (meter.warmup().toSeconds() + meter.window().toSeconds() + 10));
        PerRecordSink perRecord = perRecordSink();
        List<ConnectorBenchResult.BulkAgainstCeiling> bulk = new ArrayList<>();
        for (int inFlight : inFlightCounts()) {
            bulk.add(bulkSinkAgainstCeiling(inFlight));
        }
        noteBusyMachine(Math.max(loadBefore, systemLoad()));
        return new ConnectorBenchResult(
                datagen,
                perRecord.docsPerSecond(),
                perRecord.cpu(),
                List.copyOf(bulk),
                bulkSize(),
                aggregationTimeoutMs(),
                meter.warmup().toMillis() / 1000.0,
                meter.window().toMillis() / 1000.0,
                List.copyOf(notes));
    }

    private double datagenUnthrottled() {
        progress.accept("measuring one datagen task, unthrottled");
        source.flatOut();
        double rate = meter.perSecond(this::recordsInTopic);
        source.stop();
        return rate;
    }

    private record PerRecordSink(double docsPerSecond, ConnectorBenchResult.TurnsCpu cpu) {}

    /** Its rate, and the CPU time each process spent over the window (as over the bulk sink's turns). */
    private PerRecordSink perRecordSink() {
        progress.accept("measuring one sink task, per-record mode");
        LongSupplier indexed = startSink(SinkMode.INDEX, PER_RECORD_INDEX, Map.of());
        RateMeter.pause(meter.warmup());
        CpuShares cpu = cpuShares();
        CpuShares.Stretch window = cpu.begin();
        double rate = new RateMeter(Duration.ZERO, meter.window()).perSecond(indexed);
        window.end();
        stopSink(SinkMode.INDEX, PER_RECORD_INDEX);
        return new PerRecordSink(
                rate, turnsCpu(cpu, WORKER, rate * meter.window().toNanos() / 1e9));
    }

    /** 1, and the default of the bulk sink's config template (when it differs). */
    private List<Integer> inFlightCounts() {
        int configured = Integer.parseInt(bulkTemplateValue(IN_FLIGHT));
        return configured == 1 ? List.of(1) : List.of(1, configured);
    }

    /**
     * The bulk sink and Elasticsearch driven directly, in turns, each with {@code inFlight} requests in
     * flight: the sink for a slice of the window, then paused while the raw load runs for one,
     * {@link #SLICES} times over. Both warm up first, one after the other, uncounted: measured without
     * that, the first turn had the sink still compiling (61,900–68,200 docs/s against 67,000–78,000
     * later) and the raw load writing into a near-empty index (105,800–108,900 against 91,700–102,500 later).
     */
    private ConnectorBenchResult.BulkAgainstCeiling bulkSinkAgainstCeiling(int inFlight) {
        progress.accept("measuring one sink task in bulk mode against Elasticsearch's raw bulk rate (" + bulkSize()
                + " documents per request, " + inFlight + " in flight), in turns");
        String name = BULK_INDEX + "-" + inFlight;
        // like the sink, the raw load reads the topic from its start into an index of its own
        String rawIndex = RAW_INDEX + "-" + inFlight;
        stack.createIndex(elasticsearch, rawIndex, 1);
        long documents = RAW_DOCUMENTS_PER_SECOND
                * (meter.warmup().toSeconds() + meter.window().toSeconds());
        progress.accept("reading up to " + documents + " records of the topic for the raw load");
        RawBulkLoad raw = RawBulkLoad.read(
                elasticsearch.restClient(),
                rawIndex,
                stack.endpoints().kafkaBootstrap(),
                StackOptions.TOPIC,
                bulkSize(),
                documents,
                BACKLOG_TIMEOUT);
        ConnectorBenchResult.BulkAgainstCeiling result = bulkSinkAgainstCeiling(name, raw, inFlight);
        if (raw.wentRound()) {
            notes.add(inFlight
                    + " in flight: the raw load used up the records read for it and sent them again, overwriting "
                    + "documents, which costs Elasticsearch more: its ceiling is low");
        }
        return result;
    }

    private ConnectorBenchResult.BulkAgainstCeiling bulkSinkAgainstCeiling(String name, RawBulkLoad raw, int inFlight) {
        LongSupplier indexed = startSink(SinkMode.BULK, name, Map.of(IN_FLIGHT, String.valueOf(inFlight)));
        turn(name, indexed, raw, inFlight, meter.warmup(), cpuShares(), cpuShares(), new TraceTurns(name));
        Duration slice = meter.window().dividedBy(SLICES);
        CpuShares sinkCpu = cpuShares();
        CpuShares rawCpu = cpuShares();
        TraceTurns trace = new TraceTurns(name);
        double sinkSum = 0;
        double rawSum = 0;
        for (int i = 1; i <= SLICES; i++) {
            double[] rates = turn(name, indexed, raw, inFlight, slice, sinkCpu, rawCpu, trace);
            progress.accept(String.format(
                    Locale.ROOT,
                    "turn %d of %d: bulk sink %.0f docs/s, raw _bulk %.0f docs/s",
                    i,
                    SLICES,
                    rates[0],
                    rates[1]));
            sinkSum += rates[0];
            rawSum += rates[1];
        }
        stopSink(SinkMode.BULK, name);
        double sliceSeconds = slice.toNanos() / 1e9;
        return ConnectorBenchResult.BulkAgainstCeiling.of(
                inFlight,
                sinkSum / SLICES,
                rawSum / SLICES,
                turnsCpu(sinkCpu, WORKER, sinkSum * sliceSeconds),
                turnsCpu(rawCpu, BENCHMARK, rawSum * sliceSeconds),
                trace.summary(inFlight));
    }

    /**
     * The bulk task's request trace over the sink's turns: its running totals read from the worker's exporter
     * at the start and end of each turn, the differences added up.
     */
    private final class TraceTurns {
        private final String connector;
        private RequestTraceScrape sum = RequestTraceScrape.NONE;
        private long wallNanos;
        private String unread;

        TraceTurns(String connector) {
            this.connector = connector;
        }

        /** Reads the totals; {@link #end} with what this returned adds the stretch. */
        RequestTraceScrape begin() {
            return read();
        }

        void end(RequestTraceScrape from, long fromNanos) {
            wallNanos += System.nanoTime() - fromNanos;
            RequestTraceScrape to = read();
            if (from != null && to != null) {
                sum = sum.plus(to.minus(from));
            }
        }

        private RequestTraceScrape read() {
            if (unread != null) {
                return null;
            }
            try {
                return RequestTraceScrape.parse(exporterText(), connector);
            } catch (IllegalStateException | IllegalArgumentException e) {
                unread = e.getMessage();
                return null;
            }
        }

        ConnectorBenchResult.RequestTrace summary(int inFlight) {
            if (unread != null) {
                notes.add(inFlight + " in flight: no request trace (" + unread + ")");
                return null;
            }
            return sum.summary(wallNanos / 1e9);
        }
    }

    /** The worker's exporter's page: every bean it exports, the bulk task's trace among them. */
    private String exporterText() {
        return PageGet.text(http, stack.endpoints().metricsUrls().get(0), SCRAPE_TIMEOUT, 1);
    }

    /** Elasticsearch, Kafka, the worker and this benchmark's own JVM (the raw load's sender). */
    private CpuShares cpuShares() {
        Map<String, Supplier<Optional<Duration>>> processes = new LinkedHashMap<>();
        processes.put(ELASTICSEARCH, stack.component("elasticsearch")::cpuTime);
        processes.put("kafka", stack.component("kafka")::cpuTime);
        processes.put(WORKER, stack.component("connect-0")::cpuTime);
        processes.put(BENCHMARK, () -> ProcessHandle.current().info().totalCpuDuration());
        return new CpuShares(processes, System::nanoTime);
    }

    private static ConnectorBenchResult.TurnsCpu turnsCpu(CpuShares cpu, String sender, double docs) {
        return new ConnectorBenchResult.TurnsCpu(
                cpu.msPerThousand(ELASTICSEARCH, docs).orElse(null),
                cpu.msPerThousand(sender, docs).orElse(null),
                cpu.cores().orElse(null));
    }

    /**
     * One turn: the running bulk sink for {@code length}, then, with it paused and nothing left in flight,
     * the raw load for as long; the sink runs again when it returns. Returns both rates; adds each part's
     * CPU time to {@code sinkCpu} and {@code rawCpu}, and the sink's request trace to {@code trace}.
     */
    private double[] turn(
            String sink,
            LongSupplier indexed,
            RawBulkLoad raw,
            int inFlight,
            Duration length,
            CpuShares sinkCpu,
            CpuShares rawCpu,
            TraceTurns trace) {
        RequestTraceScrape traceFrom = trace.begin();
        long traceFromNanos = System.nanoTime();
        CpuShares.Stretch sinkStretch = sinkCpu.begin();
        double sinkRate = new RateMeter(Duration.ZERO, length).perSecond(indexed);
        sinkStretch.end();
        trace.end(traceFrom, traceFromNanos);
        connect.pauseConnector(sink);
        awaitStill(indexed);
        CpuShares.Stretch rawStretch = rawCpu.begin();
        double ceiling = raw.docsPerSecond(length, inFlight);
        rawStretch.end();
        connect.resumeConnector(sink);
        awaitGrowth(indexed);
        return new double[] {sinkRate, ceiling};
    }

    /** Lets the source produce (unthrottled) until the topic holds {@code records}, so no sink phase runs dry. */
    private void fillBacklog(long records) {
        if (recordsInTopic() >= records) {
            return;
        }
        progress.accept("producing a backlog of " + records + " records for the sink phases");
        source.produceUpTo(records);
        Poll.untilTrue(
                "a backlog of " + records + " records",
                BACKLOG_TIMEOUT,
                Duration.ofSeconds(1),
                () -> recordsInTopic() >= records,
                () -> recordsInTopic() + " records so far");
        source.stop();
    }

    /**
     * One task of the sink in {@code mode}, its template's config with {@code overrides}, draining the
     * backlog from its start into an index of its own; returns once it has indexed documents, with its
     * index's operation counter.
     */
    private LongSupplier startSink(SinkMode mode, String name, Map<String, String> overrides) {
        stack.createIndex(elasticsearch, name, 1);
        Map<String, String> config = new HashMap<>(stack.connectorConfig(
                mode.template(),
                Map.of(
                        "TOPIC",
                        StackOptions.TOPIC,
                        "INDEX",
                        name,
                        "SINK_TASKS",
                        "1",
                        "ES_HOST_PORT",
                        stack.endpoints().sinkElasticsearchHostPort())));
        config.putAll(overrides);
        connect.putConnectorConfig(name, config);
        ElasticsearchReadingsClient observer = new ElasticsearchReadingsClient(elasticsearch);
        Poll.untilTrue(
                name + " to index its first documents",
                Duration.ofSeconds(120),
                Duration.ofMillis(250),
                () -> {
                    ConnectorStatus status = connect.connectorStatus(name);
                    status.tasks().stream()
                            .filter(t -> "FAILED".equals(t.state()))
                            .findFirst()
                            .ifPresent(t -> {
                                throw new Poll.Abort(name + " task " + t.id() + " FAILED: " + t.trace());
                            });
                    return observer.indexStats(name).indexTotal() > 0;
                },
                () -> "no documents yet");
        return () -> observer.indexStats(name).indexTotal();
    }

    private void stopSink(SinkMode mode, String name) {
        if (lag("connect-" + name) == 0) {
            notes.add(
                    mode.flagValue() + " sink: the backlog ran out during the window, so its figure is a lower bound");
        }
        connect.deleteConnector(name);
    }

    /** Waits until {@code counter} has not moved for {@link #SINK_SETTLE}: the paused sink has nothing left in flight. */
    private static void awaitStill(LongSupplier counter) {
        long[] last = {counter.getAsLong(), System.nanoTime()};
        Poll.untilTrue(
                "the paused sink to settle",
                Duration.ofSeconds(60),
                Duration.ofMillis(250),
                () -> {
                    long now = counter.getAsLong();
                    if (now != last[0]) {
                        last[0] = now;
                        last[1] = System.nanoTime();
                    }
                    return System.nanoTime() - last[1] >= SINK_SETTLE.toNanos();
                },
                () -> "still indexing");
    }

    private static void awaitGrowth(LongSupplier counter) {
        long from = counter.getAsLong();
        Poll.untilTrue(
                "the resumed sink to index again",
                Duration.ofSeconds(60),
                Duration.ofMillis(100),
                () -> counter.getAsLong() > from,
                () -> "no documents since the resume");
    }

    /** The one-minute load average, the stack itself included. */
    private static double systemLoad() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * Other work on the machine takes cores from every phase, unevenly: the figures must say so. The
     * benchmark's own busy threads count in the load average too, hence the margin.
     */
    private void noteBusyMachine(double load) {
        int cores = Runtime.getRuntime().availableProcessors();
        if (load > 3 * cores) {
            notes.add(String.format(
                    Locale.ROOT,
                    "the machine was busy (load average %.1f on %d cores): other work took "
                            + "cores from the phases unevenly, so these figures are low and their ratios unreliable",
                    load,
                    cores));
        }
    }

    private long recordsInTopic() {
        return kafka.endOffsets(StackOptions.TOPIC).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private long lag(String group) {
        return Offsets.read(kafka, group, StackOptions.TOPIC).lag();
    }

    private int bulkSize() {
        return Integer.parseInt(bulkTemplateValue("camel.aggregation.size"));
    }

    private long aggregationTimeoutMs() {
        return Long.parseLong(bulkTemplateValue("camel.aggregation.timeout"));
    }

    private String bulkTemplateValue(String key) {
        Map<String, String> template = stack.connectorConfig(
                SinkMode.BULK.template(), Map.of("TOPIC", "t", "INDEX", "i", "SINK_TASKS", "1", "ES_HOST_PORT", "h:1"));
        return Optional.ofNullable(template.get(key))
                .orElseThrow(() -> new IllegalStateException(
                        "configs/connectors/" + SinkMode.BULK.template() + " sets no " + key));
    }

    private void close() {
        try {
            kafka.close();
            elasticsearch.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
