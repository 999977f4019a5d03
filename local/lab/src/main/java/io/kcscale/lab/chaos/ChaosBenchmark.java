package io.kcscale.lab.chaos;

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
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.poll.PollTimeoutException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The sink under faults on a stack of its own (two workers, the cooperative assignor, a steady load):
 * the schedule's faults one after the other, each measured until the sink indexes and commits again;
 * then the source stops, the sink drains, and every offset of the topic is reconciled with the index's
 * ids and the dead-letter topic.
 */
public final class ChaosBenchmark {

    public static final String DEAD_LETTER_TOPIC = StackOptions.SINK_CONNECTOR + "-dlq";
    public static final int WORKERS = 2;
    private static final Duration CHANGE_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(250);

    /**
     * @param ratePerSecond   the source's steady load
     * @param recoveryTimeout how long the sink may take to index and commit again after a fault
     * @param drainTimeout    how long it may take to commit the whole topic once the source stops
     */
    public record Settings(
            Path home,
            Path dataDir,
            SinkMode sinkMode,
            double ratePerSecond,
            Duration recoveryTimeout,
            Duration drainTimeout) {}

    private final Settings settings;
    private final Consumer<String> progress;
    private final LocalStack stack;
    private final KafkaReadingsClient kafka;
    private final ElasticsearchConnection elasticsearch;
    private final ConnectorChange change;

    private ChaosBenchmark(Settings settings, Consumer<String> progress, LocalStack stack) {
        this.settings = settings;
        this.progress = progress;
        this.stack = stack;
        this.kafka = new KafkaReadingsClient(stack.endpoints().kafkaBootstrap(), Map.of(), Duration.ofSeconds(10));
        this.elasticsearch = new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 30_000);
        this.change =
                new ConnectorChange(new ConnectRestClient(stack.endpoints().connectUrl()), CHANGE_TIMEOUT);
    }

    /** Starts the stack, runs {@code schedule} on it, reconciles, and stops the stack whatever happens. */
    public static ChaosResult run(Settings settings, ChaosSchedule schedule, Consumer<String> progress) {
        long started = System.nanoTime();
        StackOptions options = StackOptions.builder(settings.home())
                .dataDir(settings.dataDir())
                .freePorts()
                .fresh(true)
                .workers(WORKERS)
                .sinkTasks(1)
                .sinkMode(settings.sinkMode())
                .ratePerSecond(settings.ratePerSecond())
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .build();
        try (LocalStack stack = LocalStack.start(options, progress)) {
            ChaosBenchmark bench = new ChaosBenchmark(settings, progress, stack);
            try {
                return bench.run(schedule, started);
            } finally {
                bench.close();
            }
        }
    }

    private ChaosResult run(ChaosSchedule schedule, long started) {
        change.edit(StackOptions.SINK_CONNECTOR, ChaosBenchmark::tolerateFaults);
        progress.accept("the sink sends malformed records to " + DEAD_LETTER_TOPIC
                + ", cooperative assignor; waiting for documents");
        Poll.untilTrue(
                "the sink to index and commit",
                settings.recoveryTimeout(),
                PROBE_INTERVAL,
                () -> advancedPast(new Progress(0, 0)),
                () -> "nothing yet");
        List<FaultOutcome> outcomes = new ArrayList<>();
        boolean drained;
        double maxLag;
        Reconciliation reconciliation;
        try (LagSampler sampler = new LagSampler(stack.endpoints().kafkaBootstrap());
                FaultInjector injector = new FaultInjector(stack)) {
            sampler.start();
            long windowStart = System.nanoTime();
            for (ScheduledFault f : schedule.faults()) {
                outcomes.add(inject(injector, f, windowStart));
            }
            awaitSeconds(windowStart, schedule.windowSeconds());
            progress.accept("stopping the source; the sink drains");
            new DatagenSource(
                            change,
                            () -> Offsets.read(kafka, group(), StackOptions.TOPIC)
                                    .appended())
                    .stop();
            drained = drain();
            maxLag = sampler.maxLagSeconds();
            reconciliation = reconcile(injector);
        }
        return ChaosResult.of(
                reconciliation,
                outcomes,
                maxLag,
                settings.sinkMode().flagValue(),
                schedule.seed(),
                settings.ratePerSecond(),
                drained,
                Math.round((System.nanoTime() - started) / 1e8) / 10.0);
    }

    /**
     * Malformed records to the dead-letter topic (which needs Connect to tolerate them), and the cooperative
     * assignor, so a rebalance moves only the partitions that change hands. A killed worker's partitions move
     * after 10 s, as in the bulk template, rather than Kafka's default 45 s.
     */
    private static void tolerateFaults(Map<String, String> config) {
        config.put("kcscale.malformed.records", "dlq");
        config.put("errors.tolerance", "all");
        config.put("errors.deadletterqueue.topic.name", DEAD_LETTER_TOPIC);
        config.put("errors.deadletterqueue.topic.replication.factor", "1");
        config.put("errors.deadletterqueue.context.headers.enable", "true");
        config.put(
                "consumer.override.partition.assignment.strategy",
                "org.apache.kafka.clients.consumer.CooperativeStickyAssignor");
        config.putIfAbsent("consumer.override.session.timeout.ms", "10000");
        config.putIfAbsent("consumer.override.heartbeat.interval.ms", "3000");
    }

    private FaultOutcome inject(FaultInjector injector, ScheduledFault f, long windowStart) {
        awaitSeconds(windowStart, f.atSeconds());
        long at = System.nanoTime();
        progress.accept(String.format(
                Locale.ROOT,
                "%.1f s: %s (%s)",
                (at - windowStart) / 1e9,
                f.fault().description(),
                f.target()));
        String what = injector.inject(f);
        Double recovery = awaitRecovery(at);
        progress.accept(String.format(
                Locale.ROOT,
                "  %s; %s",
                what,
                recovery == null
                        ? "NOT recovered within " + settings.recoveryTimeout().toSeconds() + " s"
                        : "recovered in " + recovery + " s"));
        return new FaultOutcome(
                f.atSeconds(), Math.round((at - windowStart) / 1e8) / 10.0, f.fault(), f.target(), what, recovery);
    }

    /** The sink's committed offsets and Elasticsearch's index operations both past where they were once the fault was done. */
    private Double awaitRecovery(long faultStart) {
        try {
            Progress after = Poll.until(
                    "a reading of the sink's progress",
                    settings.recoveryTimeout(),
                    PROBE_INTERVAL,
                    () -> Optional.of(readProgress()));
            Poll.untilTrue(
                    "the sink to index and commit again",
                    settings.recoveryTimeout(),
                    PROBE_INTERVAL,
                    () -> advancedPast(after),
                    () -> "committed " + after.committed() + ", index operations " + after.indexOperations());
            return Math.round((System.nanoTime() - faultStart) / 1e8) / 10.0;
        } catch (PollTimeoutException e) {
            progress.accept(e.getMessage());
            return null;
        }
    }

    private record Progress(long committed, long indexOperations) {}

    /** Throws while the broker or Elasticsearch does not answer, which a poll counts as "not yet". */
    private Progress readProgress() {
        Offsets o = Offsets.read(kafka, group(), StackOptions.TOPIC);
        return new Progress(
                o.consumed(),
                new ElasticsearchReadingsClient(elasticsearch)
                        .indexStats(StackOptions.INDEX)
                        .indexTotal());
    }

    private boolean advancedPast(Progress before) {
        Progress now = readProgress();
        return now.committed() > before.committed() && now.indexOperations() > before.indexOperations();
    }

    /** Until the sink has committed the whole topic and the topic has stopped growing; false at the deadline. */
    private boolean drain() {
        long[] previous = {-1};
        try {
            Poll.untilTrue(
                    "the sink to commit the whole topic",
                    settings.drainTimeout(),
                    Duration.ofSeconds(1),
                    () -> {
                        Offsets o = Offsets.read(kafka, group(), StackOptions.TOPIC);
                        boolean settled = o.appended() == previous[0] && o.lag() == 0;
                        previous[0] = o.appended();
                        return settled;
                    },
                    () -> "the topic still grows or the sink lags");
            return true;
        } catch (PollTimeoutException e) {
            progress.accept(e.getMessage() + ": reconciling what there is");
            return false;
        }
    }

    private Reconciliation reconcile(FaultInjector injector) {
        progress.accept("reconciling every offset of " + StackOptions.TOPIC + " with the ids in " + StackOptions.INDEX
                + " and " + DEAD_LETTER_TOPIC);
        Offsets offsets = Offsets.read(kafka, group(), StackOptions.TOPIC);
        OffsetLedger ledger =
                new OffsetLedger(StackOptions.TOPIC, offsets.end(), offsets.committed(), injector.malformed());
        IndexIds.scan(elasticsearch.restClient(), StackOptions.INDEX, ledger::indexed);
        DeadLetterRecords.read(stack.endpoints().kafkaBootstrap(), DEAD_LETTER_TOPIC, ledger);
        return ledger.result();
    }

    /** Until {@code seconds} after {@code start}: a schedule's time to let pass, not a state to wait for. */
    private static void awaitSeconds(long start, double seconds) {
        long due = start + Math.round(seconds * 1e9);
        long remaining = due - System.nanoTime();
        if (remaining > 0) {
            Poll.untilTrue(
                    "the schedule's time",
                    Duration.ofNanos(remaining).plusSeconds(1),
                    Duration.ofMillis(100),
                    () -> System.nanoTime() >= due,
                    () -> "not yet");
        }
    }

    private static String group() {
        return SinkTarget.consumerGroup(StackOptions.SINK_CONNECTOR);
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
