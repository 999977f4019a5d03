package io.kcscale.scaler.observe;

import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SampleWindow;
import io.kcscale.scaler.model.SnapshotHistory;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.WorkerProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples every sink connector Connect lists at a fixed interval and keeps a sliding window of
 * samples per connector; requests read the latest derived snapshot, never the systems themselves.
 * When Connect is down it keeps sampling the connectors it knew, from Kafka and Elasticsearch. Each round also
 * probes the workers Connect names, since Connect reports a dead worker's tasks RUNNING until it reassigns them.
 */
public final class PipelineWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineWatcher.class);
    private static final Duration ROUND_WAIT = Duration.ofSeconds(30);

    private final ConnectApi connect;
    private final PipelineObserver observer;
    private final WorkerProbe workers;
    private final WorkerReachability reachability = new WorkerReachability();
    private final RoundListener roundListener;
    private final Rounds rounds;
    private final Duration interval;
    private final long windowMillis;
    private final Map<String, Map<String, String>> knownConfigs = new ConcurrentHashMap<>();
    private final Map<String, SampleWindow> windows = new ConcurrentHashMap<>();
    private final Map<String, String> nonSinks = new ConcurrentHashMap<>();
    private volatile String connectError;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kcscale-watcher");
        t.setDaemon(true);
        return t;
    });

    public PipelineWatcher(
            ConnectApi connect,
            PipelineObserver observer,
            WorkerProbe workers,
            Duration interval,
            Duration window,
            RoundListener roundListener) {
        this.connect = connect;
        this.roundListener = roundListener;
        // a round's calls each time out within seconds; a caller waits at most this long behind one
        this.rounds = new Rounds(interval.plus(ROUND_WAIT));
        this.observer = observer;
        this.workers = workers;
        this.interval = interval;
        this.windowMillis = window.toMillis();
    }

    public void start() {
        loop.scheduleWithFixedDelay(this::sampleSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A sampling round that started after this call, now: every sink connector once. Single-flight: callers
     * arriving together (the loop, requests for a connector created since the last round) share one round.
     */
    public void sampleOnce() {
        rounds.runFresh(this::sampleRound);
    }

    private void sampleRound() {
        long started = System.nanoTime();
        Map<String, ConnectApi.ConnectorView> views = null;
        try {
            views = connect.connectorsExpanded();
            connectError = null;
        } catch (ConnectRestException e) {
            connectError = e.getMessage();
        }
        if (views != null) {
            knownConfigs.keySet().retainAll(views.keySet());
            windows.keySet().retainAll(views.keySet());
            nonSinks.clear();
            views.forEach((name, view) -> {
                if (view.status().isSink()) {
                    knownConfigs.put(name, view.config());
                } else {
                    nonSinks.put(name, view.status().type());
                    knownConfigs.remove(name);
                    windows.remove(name);
                }
            });
        }
        Map<String, Long> unreachableWorkers = views == null ? Map.of() : probeWorkers(views);
        Map<String, PipelineObserver.Sink> sinks = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, String>> known : knownConfigs.entrySet()) {
            ConnectorStatus status =
                    views == null ? null : views.get(known.getKey()).status();
            Map<String, Long> own = new HashMap<>();
            if (status != null) {
                workerIds(status).forEach(w -> {
                    if (unreachableWorkers.containsKey(w)) {
                        own.put(w, unreachableWorkers.get(w));
                    }
                });
            }
            sinks.put(known.getKey(), new PipelineObserver.Sink(known.getValue(), status, own));
        }
        observer.sample(sinks, connectError)
                .forEach((name, sample) -> windows.computeIfAbsent(name, n -> new SampleWindow(windowMillis))
                        .add(sample));
        roundListener.accept(sinks.size(), System.nanoTime() - started);
    }

    /** Told of every sampling round that ran to its end: how many sink connectors it sampled and how long it took. */
    @FunctionalInterface
    public interface RoundListener {
        void accept(int connectors, long nanos);
    }

    /**
     * Probes every worker Connect names for any connector: each that does not answer, with since when. Rounds run
     * one at a time, as the reachability counts rounds.
     */
    private Map<String, Long> probeWorkers(Map<String, ConnectApi.ConnectorView> views) {
        Set<String> named = new TreeSet<>();
        views.values().forEach(v -> named.addAll(workerIds(v.status())));
        boolean wasInconclusive = reachability.inconclusive();
        Map<String, Long> unreachable =
                reachability.update(named, workers.unanswered(named), System.currentTimeMillis());
        if (reachability.inconclusive() && !wasInconclusive) {
            LOG.warn(
                    "no worker answered at the address Connect names for it ({}) while Connect's REST API did: the scaler"
                            + " cannot reach the workers' advertised addresses, so it cannot tell a dead worker and marks none",
                    named);
        }
        return unreachable;
    }

    /** The workers of a connector and its tasks. */
    private static Set<String> workerIds(ConnectorStatus status) {
        Set<String> ids = new TreeSet<>();
        if (status.workerId() != null) {
            ids.add(status.workerId());
        }
        status.tasks().forEach(t -> {
            if (t.workerId() != null) {
                ids.add(t.workerId());
            }
        });
        return ids;
    }

    private void sampleSafely() {
        try {
            sampleOnce();
        } catch (RuntimeException e) {
            LOG.warn("sampling failed", e);
        }
    }

    /** The latest snapshot of a sink connector the watcher knows. */
    public Optional<PipelineSnapshot> snapshot(String connector) {
        SampleWindow window = windows.get(connector);
        return window == null ? Optional.empty() : window.snapshot();
    }

    /** The samples of a connector's window, oldest first; empty for a connector the watcher does not know. */
    public List<PipelineSample> window(String connector) {
        SampleWindow window = windows.get(connector);
        return window == null ? List.of() : window.samples();
    }

    /** A point per sample of the connector over the last 10 minutes, oldest first; empty for one the watcher does not know. */
    public List<SnapshotHistory.Point> history(String connector) {
        SampleWindow window = windows.get(connector);
        return window == null ? List.of() : window.history();
    }

    public List<PipelineSnapshot> snapshots() {
        return windows.keySet().stream()
                .sorted()
                .map(this::snapshot)
                .flatMap(Optional::stream)
                .toList();
    }

    /** The type of a connector that exists but is not a sink, if {@code connector} is one. */
    public Optional<String> nonSinkType(String connector) {
        return Optional.ofNullable(nonSinks.get(connector));
    }

    /** Why Connect did not answer the last round, or empty when it did. */
    public Optional<String> connectError() {
        return Optional.ofNullable(connectError);
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
