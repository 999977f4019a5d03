package io.kcscale.local.cli;

import io.kcscale.local.InstallLayout;
import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackOptions;
import io.kcscale.local.StackStartException;
import io.kcscale.local.StatusLineCounters;
import io.kcscale.local.StatusLineReader;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.poll.PollTimeoutException;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Start Kafka (KRaft), Elasticsearch and Kafka Connect on this machine, create topic and index",
            "`stocks` and the connectors `stocks-datagen` and `stocks-es-sink`, then print a status line every 2 s.",
            "Ctrl-C stops everything. With --detach, return once documents flow and the sink keeps up; `./kcscale down` stops it."
        })
final class UpCommand implements Callable<Integer> {

    private static final Duration STATUS_INTERVAL = Duration.ofSeconds(2);
    /** Each judgement of whether the sink keeps up spans this much: a per-record sink indexes in small steps. */
    private static final Duration KEEPS_UP_WINDOW = Duration.ofSeconds(4);
    /**
     * How long --detach waits for a cold sink to keep up: on a loaded two-core machine the per-record
     * sink took 20–30 s at 200 records/s; a source faster than the sink can hold never gets there.
     */
    private static final Duration KEEPS_UP_TIMEOUT = Duration.ofSeconds(90);

    @Mixin
    DataDirOption data = new DataDirOption();

    @Option(
            names = "--detach",
            description =
                    "Return once documents reach Elasticsearch and the sink keeps up (or 90 s have passed); the stack keeps running.")
    boolean detach;

    @Option(names = "--fresh", description = "Wipe the data directory first.")
    boolean fresh;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "20",
            description = "Partitions of topic stocks (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--rate",
            paramLabel = "R",
            defaultValue = "100",
            description = "Records/s the source produces in total (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(
            names = "--keyfield",
            paramLabel = "F",
            defaultValue = "price",
            description = "Field of the stock trade used as record key (default: ${DEFAULT-VALUE}).")
    String keyField;

    @Option(
            names = "--shards",
            paramLabel = "S",
            defaultValue = "1",
            description = "Primary shards of index stocks (default: ${DEFAULT-VALUE}, Elasticsearch's own).")
    int shards;

    @Option(
            names = "--sink-tasks",
            paramLabel = "T",
            defaultValue = "1",
            description = "tasks.max of the sink connector (default: ${DEFAULT-VALUE}).")
    int sinkTasks;

    @Option(
            names = "--sink-mode",
            paramLabel = "index|bulk",
            defaultValue = "index",
            description =
                    "index: one request per record, waiting for each answer (default); bulk: one bulk request per batch, "
                            + "offsets committed once Elasticsearch holds the documents.")
    String sinkMode;

    @Option(
            names = "--workers",
            paramLabel = "W",
            defaultValue = "1",
            description = "Connect workers in the group (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(
            names = "--iterations",
            paramLabel = "N",
            defaultValue = "-1",
            description = "Records the source produces before it stops; -1: no end (default).")
    long iterations;

    @Option(
            names = "--sink-latency-ms",
            paramLabel = "L",
            defaultValue = "0",
            description =
                    "Every request from the sink to Elasticsearch waits L ms in a proxy, as against a remote cluster (14: one"
                            + " per-record task does ~70 records/s); 0: none (default).")
    int sinkLatencyMs;

    @Option(
            names = "--commit-interval-ms",
            paramLabel = "MS",
            defaultValue = "60000",
            description =
                    "How often the sink tasks commit their offsets (the workers' offset.flush.interval.ms), 1000 to"
                            + " 300000 (default: ${DEFAULT-VALUE}, Connect's own).")
    long commitIntervalMs;

    @Option(
            names = "--kafka-port",
            defaultValue = "9092",
            description = "Kafka listener port (default: ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(
            names = "--controller-port",
            defaultValue = "9093",
            description = "KRaft controller port (default: ${DEFAULT-VALUE}).")
    int controllerPort;

    @Option(
            names = "--connect-port",
            defaultValue = "8083",
            description = "REST port of the first Connect worker; worker i uses port+i (default: ${DEFAULT-VALUE}).")
    int connectPort;

    @Option(
            names = "--elasticsearch-port",
            defaultValue = "9200",
            description = "Elasticsearch HTTP port (default: ${DEFAULT-VALUE}).")
    int elasticsearchPort;

    @Option(
            names = "--scaler-port",
            defaultValue = "8080",
            description = "The scaler service's port (default: ${DEFAULT-VALUE}).")
    int scalerPort;

    @Option(
            names = "--elasticsearch-transport-port",
            defaultValue = "9300",
            description = "Elasticsearch transport port (default: ${DEFAULT-VALUE}).")
    int elasticsearchTransportPort;

    @Option(
            names = "--metrics",
            description = "Attach the JMX exporter agent (configs/jmx-exporter/) to every Connect worker.")
    boolean metrics;

    @Option(
            names = "--metrics-port",
            defaultValue = "9404",
            description =
                    "Metrics port of the first worker's exporter; worker i uses port+i (default: ${DEFAULT-VALUE}).")
    int metricsPort;

    @Option(
            names = "--prometheus",
            description =
                    "Also run Prometheus (on the PATH) against the stack with configs/prometheus/ rules; implies --metrics.")
    boolean prometheus;

    @Option(
            names = "--prometheus-port",
            defaultValue = "9090",
            description = "Prometheus' port (default: ${DEFAULT-VALUE}).")
    int prometheusPort;

    @Override
    public Integer call() {
        StackOptions options;
        try {
            options = StackOptions.builder(InstallLayout.toolkitHome())
                    .dataDir(data.resolve())
                    .fresh(fresh)
                    .partitions(partitions)
                    .ratePerSecond(rate)
                    .keyField(keyField)
                    .shards(shards)
                    .sinkTasks(sinkTasks)
                    .sinkMode(SinkMode.parse(sinkMode))
                    .workers(workers)
                    .iterations(iterations)
                    .kafkaPort(kafkaPort)
                    .controllerPort(controllerPort)
                    .connectPort(connectPort)
                    .elasticsearchPort(elasticsearchPort)
                    .elasticsearchTransportPort(elasticsearchTransportPort)
                    .scalerPort(scalerPort)
                    .metrics(metrics)
                    .metricsPort(metricsPort)
                    .prometheus(prometheus)
                    .prometheusPort(prometheusPort)
                    .sinkLatencyMs(sinkLatencyMs)
                    .commitIntervalMs(commitIntervalMs)
                    .build();
        } catch (IllegalArgumentException e) {
            System.err.println("kcscale: " + e.getMessage());
            return 2;
        }
        long started = System.nanoTime();
        LocalStack stack;
        try {
            stack = LocalStack.start(options, m -> System.err.println("kcscale: " + m));
        } catch (IllegalStateException | IllegalArgumentException | StackStartException e) {
            System.err.println("kcscale: " + e.getMessage());
            return 1;
        }
        System.out.println("kcscale: up | " + stack.endpoints().describe());
        return detach ? awaitDocuments(stack, started) : watch(stack);
    }

    /**
     * Returns once Elasticsearch has indexed documents and the sink keeps up with the source (or that
     * has not come within {@link #KEEPS_UP_TIMEOUT}, said so); on failure stops the stack and says why.
     */
    private static int awaitDocuments(LocalStack stack, long started) {
        ConnectRestClient connect = new ConnectRestClient(stack.endpoints().connectUrl());
        try (StatusLineReader status = new StatusLineReader(stack.endpoints())) {
            Poll.until("documents to reach Elasticsearch", Duration.ofSeconds(120), Duration.ofMillis(500), () -> {
                ConnectorStatus sink = connect.connectorStatus(StackOptions.SINK_CONNECTOR);
                sink.tasks().stream()
                        .filter(t -> "FAILED".equals(t.state()))
                        .findFirst()
                        .ifPresent(t -> {
                            throw new Poll.Abort("sink task " + t.id() + " FAILED: " + t.trace());
                        });
                StatusLineCounters s = status.read();
                if (s.indexed().isEmpty() || s.indexed().getAsLong() == 0) {
                    throw new IllegalStateException("Elasticsearch index operations so far: "
                            + (s.indexed().isPresent() ? "0" : "unknown (no answer)") + ", sink tasks " + sink.tasks());
                }
                return Optional.of(s);
            });
            System.out.println("kcscale: documents are flowing; the stack runs detached. `./kcscale down` stops it.");
            System.out.println("kcscale: " + awaitSinkKeepingUp(status, started));
            return 0;
        } catch (RuntimeException | java.io.IOException e) {
            System.err.println("kcscale: " + e.getMessage());
            System.err.println(
                    "--- last lines of " + stack.component("connect-0").logFile() + " ---");
            System.err.println(stack.component("connect-0").logTail(30));
            stack.stop();
            return 1;
        }
    }

    /**
     * Waits until the sink kept up over one window ({@link StatusLineCounters#sinkKeptUp}): cold JVMs
     * index at a fraction of the rate at first, and a backlog built then would be the first experiment's.
     */
    private static String awaitSinkKeepingUp(StatusLineReader status, long started) {
        StatusLineCounters[] window = {status.read()};
        String[] last = {"no reading yet"};
        try {
            StatusLineCounters steady = Poll.until("the sink to keep up", KEEPS_UP_TIMEOUT, STATUS_INTERVAL, () -> {
                StatusLineCounters now = status.read();
                if (now.nanos() - window[0].nanos() < KEEPS_UP_WINDOW.toNanos()) {
                    return Optional.empty();
                }
                StatusLineCounters before = window[0];
                window[0] = now;
                if (now.sinkKeptUp(before)) {
                    return Optional.of(now);
                }
                last[0] = now.statusLine(before);
                return Optional.empty();
            });
            return String.format(
                    Locale.ROOT,
                    "the sink keeps up %.1f s after up (lag %d)",
                    (steady.nanos() - started) / 1e9,
                    steady.lag().getAsLong());
        } catch (PollTimeoutException e) {
            return String.format(
                    Locale.ROOT,
                    "the sink has not kept up with the source %.0f s after up (last %d s: %s); "
                            + "`./kcscale status` shows the lag",
                    (System.nanoTime() - started) / 1e9,
                    KEEPS_UP_WINDOW.toSeconds(),
                    last[0]);
        }
    }

    /** Prints a status line every 2 s until Ctrl-C, then stops the stack in order. */
    private static int watch(LocalStack stack) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.err.println("kcscale: stopping");
                            stack.stop();
                            stopped.countDown();
                        },
                        "kcscale-down"));
        try (StatusLineReader status = new StatusLineReader(stack.endpoints())) {
            StatusLineCounters before = status.read();
            while (!stopped.await(STATUS_INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
                StatusLineCounters now = status.read();
                System.out.println(now.statusLine(before));
                before = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException e) {
            System.err.println("kcscale: " + e.getMessage());
        }
        return 0;
    }
}
