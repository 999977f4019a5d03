package io.kcscale.scaler.observe;

import io.kcscale.scaler.checks.WorkerCpuSource;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.TaskCapacities;
import io.kcscale.scaler.ports.TaskMetricsReadings;
import io.kcscale.scaler.prometheus.ExporterTaskReader;
import io.kcscale.scaler.prometheus.PrometheusTaskReader;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The sink tasks' metrics from where the settings say the workers publish theirs ({@code worker.metrics.urls},
 * {@code prometheus.url}, as {@code worker-capacity} reads their CPU): each worker from its exporter, else from
 * Prometheus. A task none reads is unread, with every source's reason, so that the snapshot names what would read it.
 */
public final class TaskMetricsSources implements TaskMetricsReadings {

    /** Workers read per round at most (the first by id): beyond it a template or Prometheus is no cheaper. */
    static final int MAX_WORKERS = 64;

    private final WorkerCpuSettings settings;
    private final ExporterTaskReader exporter = new ExporterTaskReader(System::currentTimeMillis);
    private final Optional<PrometheusTaskReader> prometheus;

    public TaskMetricsSources(WorkerCpuSettings settings) {
        this.settings = settings;
        this.prometheus = settings.prometheusUrl().map(PrometheusTaskReader::new);
    }

    @Override
    public Pending start(Map<String, Sink> sinks) {
        Map<String, List<String>> topics = new TreeMap<>();
        TreeSet<String> workers = new TreeSet<>();
        sinks.forEach((connector, sink) -> {
            if (sink.tasks() != null && !sink.topics().isEmpty()) {
                topics.put(connector, sink.topics());
                sink.tasks().stream()
                        .map(PipelineSample.TaskState::workerId)
                        .filter(w -> w != null)
                        .forEach(workers::add);
            }
        });
        List<String> read = new ArrayList<>(workers).subList(0, Math.min(MAX_WORKERS, workers.size()));
        List<WorkerCpuSource> sources = settings.sources();
        boolean fromExporter = sources.contains(WorkerCpuSource.EXPORTER);
        boolean fromPrometheus = sources.contains(WorkerCpuSource.PROMETHEUS);
        Map<String, String> why = new TreeMap<>();
        Map<String, URI> urls = new TreeMap<>();
        if (fromExporter) {
            read.forEach(w -> settings.metricsUrl(w)
                    .ifPresentOrElse(
                            u -> urls.put(w, u),
                            () -> why.put(w, "exporter: " + WorkerCpuSource.EXPORTER.flag() + " gives no URL for it")));
        }
        ExporterTaskReader.Pending scrapes = urls.isEmpty() ? Map::of : exporter.start(urls, topics);
        return () -> {
            if (!fromExporter && !fromPrometheus) {
                return unread(sinks, TaskCapacities.NOT_READ);
            }
            Map<String, ExporterTaskReader.Result> results = new TreeMap<>(scrapes.await());
            results.forEach((w, r) -> {
                if (r.failure() != null) {
                    why.put(w, r.failure());
                }
            });
            List<String> left = read.stream()
                    .filter(w -> !results.containsKey(w) || results.get(w).failure() != null)
                    .toList();
            if (fromPrometheus && !left.isEmpty()) {
                Map<String, String> instances = new TreeMap<>();
                left.forEach(w -> settings.instance(w)
                        .ifPresentOrElse(
                                i -> instances.put(w, i),
                                () -> why.merge(
                                        w,
                                        "prometheus: " + WorkerCpuSource.EXPORTER.flag()
                                                + " gives no exporter (instance label) for it",
                                        (a, b) -> a + "; " + b)));
                prometheus.orElseThrow().read(instances, topics).forEach((w, r) -> {
                    if (r.failure() == null) {
                        results.put(w, r);
                        why.remove(w);
                    } else {
                        why.merge(w, r.failure(), (a, b) -> a + "; " + b);
                    }
                });
            }
            workers.stream()
                    .skip(MAX_WORKERS)
                    .forEach(w -> why.put(w, "beyond the " + MAX_WORKERS + " workers read in one round"));
            return assemble(sinks, results, why);
        };
    }

    /** Each connector's tasks from the workers' results, each task unread with its worker's reason where it has none. */
    private static Map<String, PipelineSample.WorkerMetrics> assemble(
            Map<String, Sink> sinks, Map<String, ExporterTaskReader.Result> results, Map<String, String> why) {
        Map<String, PipelineSample.WorkerMetrics> metrics = new TreeMap<>();
        sinks.forEach((connector, sink) -> {
            Map<Integer, PipelineSample.TaskMetrics> tasks = new TreeMap<>();
            Map<Integer, String> unread = new TreeMap<>();
            for (PipelineSample.TaskState t :
                    sink.tasks() == null ? List.<PipelineSample.TaskState>of() : sink.tasks()) {
                ExporterTaskReader.Result r = t.workerId() == null ? null : results.get(t.workerId());
                PipelineSample.TaskMetrics m = r == null || r.failure() != null
                        ? null
                        : r.tasks().getOrDefault(connector, Map.of()).get(t.id());
                if (m != null) {
                    tasks.put(t.id(), m);
                } else if (t.workerId() == null) {
                    unread.put(t.id(), "Connect places it on no worker");
                } else if (why.containsKey(t.workerId())) {
                    unread.put(t.id(), why.get(t.workerId()));
                } else {
                    unread.put(
                            t.id(),
                            "worker " + t.workerId() + " publishes nothing of task " + t.id() + " of " + connector
                                    + " (its exporter's rules must admit the task's sink-task-metrics and its"
                                    + " consumer's consumer-metrics: configs/jmx-exporter/connect-worker.yml)");
                }
            }
            metrics.put(connector, new PipelineSample.WorkerMetrics(tasks, unread));
        });
        return metrics;
    }

    private static Map<String, PipelineSample.WorkerMetrics> unread(Map<String, Sink> sinks, String why) {
        Map<String, PipelineSample.WorkerMetrics> metrics = new TreeMap<>();
        sinks.forEach((connector, sink) -> {
            Map<Integer, String> unread = new TreeMap<>();
            if (sink.tasks() != null) {
                sink.tasks().forEach(t -> unread.put(t.id(), why));
            }
            metrics.put(connector, new PipelineSample.WorkerMetrics(Map.of(), unread));
        });
        return metrics;
    }
}
