package io.kcscale.lab.bench;

import io.kcscale.lab.simulator.LoadPhase;
import io.kcscale.lab.simulator.LoadTrace;
import io.kcscale.lab.simulator.ScalingAction;
import io.kcscale.lab.simulator.Simulation;
import io.kcscale.lab.simulator.Timeline;
import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkDelayProxy;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchReadingsClient;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.scale.ScaleRequest;
import io.kcscale.scaler.scale.ScaleResult;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.vocabulary.Arrivals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Autoscaling policies on the real local pipeline, one after the other on the same trace: a stack of
 * its own (free ports, one worker, per-record sink writing through a {@link SinkDelayProxy}); the trace
 * sets the datagen's rate through Connect's REST API; a policy observes through the scaler's own
 * watcher, evaluates on each new sample once its interval has passed, and scales through the
 * scaler's {@code ScaleAction}. Records the same {@link Timeline} the simulator does.
 */
public final class LiveAutoscaleBenchmark implements AutoCloseable {

    /** The scaler's defaults: a sample every 2 s, rates over 30 s. */
    public static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(2);

    public static final Duration WINDOW = Duration.ofSeconds(30);
    private static final Duration LOOP_TICK = Duration.ofMillis(100);
    private static final Duration RESET_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration CALIBRATION_WINDOW = Duration.ofSeconds(5);
    private static final int CALIBRATION_WINDOWS = 30;
    private static final int AGREEING_WINDOWS = 3;
    private static final double CALIBRATION_AGREEMENT = 0.10;

    /**
     * @param sinkDelay the delay every sink request waits in the proxy; zero writes to Elasticsearch directly
     * @param seed      seeds the datagen's records and Poisson arrivals, and the policies' clock phase
     */
    public record Settings(Path home, Path dataDir, int partitions, Duration sinkDelay, long seed) {
        public Settings {
            if (partitions < 1) {
                throw new IllegalArgumentException("--partitions must be at least 1, got " + partitions);
            }
            if (sinkDelay.isNegative() || sinkDelay.toMillis() > SinkDelayProxy.MAX_DELAY_MILLIS) {
                throw new IllegalArgumentException("--sink-latency-ms must be from 0 to "
                        + SinkDelayProxy.MAX_DELAY_MILLIS + ", got " + sinkDelay.toMillis());
            }
        }
    }

    private final Settings settings;
    private final Consumer<String> progress;
    private final LocalStack stack;
    private final ScalerService scaler;
    private final ConnectRestClient connect;
    private final ElasticsearchConnection elasticsearch;
    /** The running policy's latest verdict, so each new one is reported once. */
    private Decision lastVerdict;

    private LiveAutoscaleBenchmark(Settings settings, Consumer<String> progress, LocalStack stack) {
        this.settings = settings;
        this.progress = progress;
        this.stack = stack;
        this.connect = new ConnectRestClient(stack.endpoints().connectUrl());
        this.elasticsearch = new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 10_000);
        this.scaler = new ScalerService(ScalerSettings.fromValues(Map.of(
                // busy time and CPU from the worker's exporter, as the rules that size by busy time need
                "worker.metrics.urls", String.join(",", stack.endpoints().workerMetricsUrls()),
                "connect.url", stack.endpoints().connectUrl().toString(),
                "kafka.bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                "elasticsearch.url", stack.endpoints().elasticsearchUrl().toString(),
                "task.cap", String.valueOf(settings.partitions()),
                "window.seconds", String.valueOf(WINDOW.toSeconds()),
                "sample.interval.seconds", String.valueOf(SAMPLE_INTERVAL.toSeconds()),
                "state.dir", settings.dataDir().resolve("bench-scaler").toString())));
    }

    /** Starts a fresh stack in the data directory, its sink writing through the delay, and starts observing it. */
    public static LiveAutoscaleBenchmark start(Settings settings, Consumer<String> progress) {
        StackOptions options = StackOptions.builder(settings.home())
                .dataDir(settings.dataDir())
                .freePorts()
                .fresh(true)
                .workers(1)
                .partitions(settings.partitions())
                .sinkTasks(1)
                .sinkMode(SinkMode.INDEX)
                .ratePerSecond(10)
                .sinkLatencyMs((int) settings.sinkDelay().toMillis())
                .metrics(true)
                // the benchmark's scaler runs in this process; the stack's would only take CPU from the run
                .scaler(false)
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .build();
        LocalStack stack = LocalStack.start(options, progress);
        try {
            LiveAutoscaleBenchmark bench = new LiveAutoscaleBenchmark(settings, progress, stack);
            bench.scaler.start();
            return bench;
        } catch (RuntimeException e) {
            stack.stop();
            throw e;
        }
    }

    /**
     * What {@code tasks} sink tasks write together when they cannot keep up: the source offers more than the
     * delay allows them, and Elasticsearch's index counter is read over successive 5 s windows until three
     * in a row agree within 10% of their mean. A fresh sink speeds up for a minute or more as the JVM compiles
     * its path (measured here: 36, 53, 75, 95, 147 docs/s in successive 10 s windows); with one task, the trace's
     * rates are multiples of this one. The sink keeps {@code tasks} tasks: a run's reset brings it back to one.
     */
    public double calibrate(int tasks) {
        double offered = tasks * overloadRate();
        progress.accept(
                String.format(Locale.ROOT, "measuring %d sink task(s) (the source offers %.0f/s)", tasks, offered));
        scaleTo(tasks);
        setSource(new LoadPhase("calibration", 1, offered, Arrivals.STEADY));
        ElasticsearchReadingsClient observer = new ElasticsearchReadingsClient(elasticsearch);
        LongSupplier indexed = () -> observer.indexStats(StackOptions.INDEX).indexTotal();
        long before = indexed.getAsLong();
        // measure once the sink writes
        Poll.untilTrue(
                "the sink to write through the delay",
                RESET_TIMEOUT,
                Duration.ofSeconds(1),
                () -> indexed.getAsLong() > before,
                () -> "index operations still " + before);
        RateMeter window = new RateMeter(Duration.ZERO, CALIBRATION_WINDOW);
        List<Double> rates = new ArrayList<>();
        while (rates.size() < CALIBRATION_WINDOWS) {
            rates.add(window.perSecond(indexed));
            progress.accept(
                    String.format(Locale.ROOT, "%d sink task(s): %.1f docs/s", tasks, rates.get(rates.size() - 1)));
            if (rates.size() >= AGREEING_WINDOWS) {
                List<Double> last = rates.subList(rates.size() - AGREEING_WINDOWS, rates.size());
                double mean =
                        last.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                if (last.stream().allMatch(r -> Math.abs(r - mean) <= CALIBRATION_AGREEMENT * mean)) {
                    return mean;
                }
            }
        }
        progress.accept("the sink's rate did not settle within " + CALIBRATION_WINDOWS + " windows: taking the last");
        return rates.get(rates.size() - 1);
    }

    /** Records/s that one task cannot keep up with: half again the most the sink's delay lets it write. */
    public double overloadRate() {
        return settings.sinkDelay().isZero()
                ? 20_000
                : 1.5 * 1000.0 / settings.sinkDelay().toMillis();
    }

    /**
     * Runs {@code policy} over {@code trace} from a clean start: one task, no backlog, a stable window at the
     * first phase's rate.
     */
    public Timeline run(ScalingRule policy, LoadTrace trace) {
        reset(trace.phases().get(0));
        progress.accept("running " + policy.name() + " over the trace (" + Math.round(trace.durationSeconds()) + " s)");
        PolicyMemory memory = new PolicyMemory();
        lastVerdict = null;
        List<Timeline.Point> points = new ArrayList<>();
        List<ScalingAction> actions = new ArrayList<>();
        long start = System.currentTimeMillis();
        long end = start + Math.round(trace.durationSeconds() * 1000);
        long nextEvaluation =
                start + Math.round(Simulation.clockPhase(settings.seed()) * policy.evaluationIntervalMillis());
        long lastSample = start;
        int phase = 0;
        for (long now = start; now < end; now = System.currentTimeMillis()) {
            int due = trace.indexAt((now - start) / 1000.0);
            if (due != phase) {
                phase = due;
                setSource(trace.phases().get(phase));
            }
            Optional<PipelineSnapshot> snapshot = scaler.scaler().observed(StackOptions.SINK_CONNECTOR);
            if (snapshot.isPresent() && snapshot.get().observedAtMillis() > lastSample) {
                PipelineSnapshot s = snapshot.get();
                lastSample = s.observedAtMillis();
                int tasks = s.tasksMax() == null ? 0 : s.tasksMax();
                points.add(Timeline.Point.of(
                        (lastSample - start) / 1000.0, trace.phases().get(phase).ratePerSecond(), s, tasks));
                if (now >= nextEvaluation) {
                    evaluate(policy, memory, now, start).ifPresent(actions::add);
                    nextEvaluation = now + policy.evaluationIntervalMillis();
                }
            }
            RateMeter.pause(LOOP_TICK);
        }
        return new Timeline(policy.name(), 1, trace.durationSeconds(), points, actions);
    }

    /**
     * One evaluation through the scaler's facade, which decides as the live autoscaler does (the same holds, then the
     * rule); a scale goes through the scaler's scale, as the live autoscaler's does. Each new verdict is reported once,
     * as the live autoscaler records it.
     */
    private Optional<ScalingAction> evaluate(ScalingRule policy, PolicyMemory memory, long now, long start) {
        // time from the run's start, as in the simulator: a schedule or a cooldown means the same in both
        Decision d = scaler.scaler().decide(StackOptions.SINK_CONNECTOR, policy, memory, now - start);
        if (!d.scales()) {
            if (!d.repeats(lastVerdict)) {
                progress.accept(String.format(
                        Locale.ROOT,
                        "%s at %.1f s: %s %s",
                        policy.name(),
                        (now - start) / 1000.0,
                        d.action(),
                        d.reason()));
            }
            lastVerdict = d;
            return Optional.empty();
        }
        // the peers' rules run without our checks, as they do where they come from
        boolean force = !ScalingRules.KCSCALE.equals(policy.name());
        try {
            ScaleResult result = scaler.scaler()
                    .scale(StackOptions.SINK_CONNECTOR, new ScaleRequest(d.toTasks(), false, false, force));
            policy.applied(d, result.rebalancePauseSeconds(), memory);
            progress.accept(String.format(
                    Locale.ROOT,
                    "%s at %.1f s: %d -> %d tasks, pause %s s: %s",
                    policy.name(),
                    (now - start) / 1000.0,
                    d.fromTasks(),
                    d.toTasks(),
                    result.rebalancePauseSeconds(),
                    d.reason()));
            return Optional.of(new ScalingAction(
                    (now - start) / 1000.0,
                    d.fromTasks(),
                    d.toTasks(),
                    d.code(),
                    d.reason(),
                    result.rebalancePauseSeconds()));
        } catch (ScalerException e) {
            progress.accept(policy.name() + ": the scale to " + d.toTasks() + " was not made: " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Back to one task with no backlog: a task per partition drains what is left while the source offers a
     * tenth of the first phase's rate; then one task, at that phase's rate, until the scaler's window holds
     * no rebalance.
     */
    private void reset(LoadPhase first) {
        progress.accept("resetting: one task, no backlog, a stable window");
        setSource(new LoadPhase("drain", 1, first.ratePerSecond() / 10, Arrivals.STEADY));
        scaleTo(settings.partitions());
        double drained = Math.max(10, first.ratePerSecond());
        awaitSnapshot(
                "the backlog to drain", s -> s.lag().total() != null && s.lag().total() <= drained);
        scaleTo(1);
        setSource(first);
        awaitSnapshot("a stable window", PipelineSnapshot::stable);
    }

    /** Outside any policy's run: forced past the checks, which judge scale-ups for load, not for a drain. */
    private void scaleTo(int tasks) {
        scaler.scaler().scale(StackOptions.SINK_CONNECTOR, new ScaleRequest(tasks, false, false, true));
    }

    private void awaitSnapshot(String what, Predicate<PipelineSnapshot> condition) {
        Poll.until(
                what,
                RESET_TIMEOUT,
                Duration.ofSeconds(1),
                () -> scaler.scaler().observed(StackOptions.SINK_CONNECTOR).filter(condition));
    }

    /** Read-modify-write of the datagen's config: its rate, arrivals and seed. */
    private void setSource(LoadPhase phase) {
        Map<String, String> config = new HashMap<>(connect.connectorConfig(StackOptions.SOURCE_CONNECTOR));
        config.put("rate.per.task", String.valueOf(phase.ratePerSecond()));
        config.put("arrivals", phase.arrivals().configName());
        config.put("random.seed", String.valueOf(settings.seed()));
        connect.putConnectorConfig(StackOptions.SOURCE_CONNECTOR, config);
    }

    @Override
    public void close() {
        try {
            scaler.close();
            elasticsearch.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            stack.stop();
        }
    }
}
