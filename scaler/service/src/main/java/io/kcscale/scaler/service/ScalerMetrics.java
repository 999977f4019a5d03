package io.kcscale.scaler.service;

import io.kcscale.scaler.model.LagVerdict;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.scale.ScaleResult;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The scaler's figures as Prometheus metrics: every figure of a connector snapshot, per connector and
 * per task (read from the watcher at scrape time), the scaler's own scale actions and what it costs.
 */
public final class ScalerMetrics {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PipelineWatcher watcher;
    private final Counter scaleActions;
    private final Gauge rebalancePause;

    /**
     * @param recommendedTasks   per connector, the tasks its autoscale policy would set now, if it has one
     * @param recommendedWorkers per connector, the workers those tasks need
     */
    ScalerMetrics(
            PipelineWatcher watcher,
            Function<String, Optional<Integer>> recommendedTasks,
            Function<String, Optional<Integer>> recommendedWorkers,
            ScalerCostMetrics cost) {
        this.watcher = watcher;
        cost.register(registry);
        perConnector(
                "kcscale_append_rate_records_per_second",
                "Records appended to the sink's topic per second",
                s -> s.rates().appendPerSecond());
        perConnector(
                "kcscale_sink_rate_records_per_second",
                "Records the sink group committed per second",
                s -> s.rates().sinkPerSecond());
        perConnector(
                "kcscale_index_rate_operations_per_second",
                "Index operations per second on the sink's Elasticsearch index",
                s -> s.rates().indexPerSecond());
        perConnector(
                "kcscale_lag_records",
                "Records the sink group has not committed, over all partitions",
                s -> s.lag().total() == null ? null : s.lag().total().doubleValue());
        perConnector(
                "kcscale_latency_seconds", "Little's-law latency: lag / sink rate", PipelineSnapshot::latencySeconds);
        perConnector(
                "kcscale_tasks_max",
                "tasks.max of the sink connector",
                s -> s.tasksMax() == null ? null : s.tasksMax().doubleValue());
        perConnector(
                "kcscale_partitions",
                "Partitions of the sink's topics",
                s -> s.partitions() == null ? null : s.partitions().doubleValue());
        // a sink without a dead-letter topic dead-letters nothing: 0, so an alert sees every sink
        perConnector(
                "kcscale_dead_letter_append_rate_records_per_second",
                "Records appended to the sink's dead-letter topic per second",
                s -> s.deadLetters() == null
                        ? Double.valueOf(0)
                        : s.deadLetters().appendPerSecond());
        perConnector(
                "kcscale_stable",
                "1 when the pipeline is stable (offsets advance, no rebalance, all tasks RUNNING)",
                s -> s.stable() ? 1.0 : 0.0);
        perConnector(
                "kcscale_degraded", "1 when a system of the pipeline did not answer", s -> s.degraded() ? 1.0 : 0.0);
        perConnector(
                "kcscale_unreachable_workers",
                "Connect workers placing the connector or its tasks that do not answer the scaler's probe",
                s -> (double) s.unreachableWorkers().size());
        // observed connectors only, as every per-connector figure: the label set stays bounded
        perConnector(
                "kcscale_recommended_tasks",
                "Tasks the connector's autoscale policy would set now (as GET .../recommendation)",
                s -> recommendedTasks.apply(s.name()).map(Integer::doubleValue).orElse(null));
        perConnector(
                "kcscale_recommended_workers",
                "Connect workers the recommended tasks need (as GET .../recommendation)",
                s -> recommendedWorkers
                        .apply(s.name())
                        .map(Integer::doubleValue)
                        .orElse(null));
        GaugeWithCallback.builder()
                .name("kcscale_task_sink_rate_records_per_second")
                .help("Records per second a sink task committed")
                .labelNames("connector", "task")
                .callback(cb -> each(s -> s.tasks().forEach(t -> {
                    if (t.recordsPerSecond() != null) {
                        cb.call(t.recordsPerSecond(), s.name(), String.valueOf(t.id()));
                    }
                })))
                .register(registry);
        perConnector(
                "kcscale_busy_fraction",
                "The RUNNING tasks' mean share of time spent in put(), from the workers' metrics; absent when any is"
                        + " unknown",
                PipelineSnapshot::busyFraction);
        perConnector(
                "kcscale_capacity_per_task_records_per_second",
                "Records/s one task can do, from the RUNNING tasks' read rate over their busy fraction (the median of"
                        + " the window's readings); absent when unknown",
                s -> s.capacity().recordsPerSecond());
        // bounded as the task rates: the tasks of observed connectors only
        GaugeWithCallback.builder()
                .name("kcscale_task_busy_fraction")
                .help("Share of its time a sink task spent in put(), waiting on the sink included")
                .labelNames("connector", "task")
                .callback(cb -> each(s -> s.tasks().forEach(t -> {
                    if (t.busyFraction() != null) {
                        cb.call(t.busyFraction(), s.name(), String.valueOf(t.id()));
                    }
                })))
                .register(registry);
        GaugeWithCallback.builder()
                .name("kcscale_task_capacity_records_per_second")
                .help("Records/s a sink task can do: its read rate over its busy fraction, the median of the window's"
                        + " readings")
                .labelNames("connector", "task")
                .callback(cb -> each(s -> s.tasks().forEach(t -> {
                    if (t.capacity() != null && t.capacity().known()) {
                        cb.call(t.capacity().recordsPerSecond(), s.name(), String.valueOf(t.id()));
                    }
                })))
                .register(registry);
        GaugeWithCallback.builder()
                .name("kcscale_task_running")
                .help("1 when the sink task is RUNNING")
                .labelNames("connector", "task")
                .callback(cb -> each(s -> s.tasks()
                        .forEach(t -> cb.call("RUNNING".equals(t.state()) ? 1 : 0, s.name(), String.valueOf(t.id())))))
                .register(registry);
        // bounded: the partitions of the topics of observed connectors only
        GaugeWithCallback.builder()
                .name("kcscale_partition_lag_records")
                .help("Records of one partition the sink group has not committed")
                .labelNames("connector", "topic", "partition")
                .callback(cb -> each(s -> s.lag()
                        .perTopicPartition()
                        .forEach((tp, lag) -> cb.call(lag, s.name(), tp.topic(), String.valueOf(tp.partition())))))
                .register(registry);
        // bounded: the topics of observed connectors only
        GaugeWithCallback.builder()
                .name("kcscale_lag_seconds")
                .help("Age of the oldest record the sink group has not committed, the most over the topic's partitions")
                .labelNames("connector", "topic")
                .callback(cb ->
                        each(s -> oldestPerTopic(s).forEach((topic, seconds) -> cb.call(seconds, s.name(), topic))))
                .register(registry);
        // a state set: one series per verdict, 1 for the connector's own, so a query needs no string matching
        GaugeWithCallback.builder()
                .name("kcscale_lag_verdict")
                .help("1 for the connector's lag verdict (its worst partition's), 0 for the others")
                .labelNames("connector", "verdict")
                .callback(cb -> each(s -> {
                    if (s.lag().verdict() != null) {
                        for (LagVerdict v : LagVerdict.values()) {
                            cb.call(v == s.lag().verdict() ? 1 : 0, s.name(), v.label());
                        }
                    }
                }))
                .register(registry);
        scaleActions = Counter.builder()
                .name("kcscale_scale_actions_total")
                .help(
                        "Scale requests by outcome (applied, dry_run, unchanged, or the refusal kind); connector is empty for a name not observed")
                .labelNames("connector", "outcome")
                .register(registry);
        rebalancePause = Gauge.builder()
                .name("kcscale_last_rebalance_pause_seconds")
                .help("Sink pause caused by the last scale this scaler applied")
                .labelNames("connector")
                .register(registry);
    }

    /** The oldest unconsumed record's age per topic, over its partitions whose age is known. */
    private static Map<String, Double> oldestPerTopic(PipelineSnapshot s) {
        Map<String, Double> oldest = new TreeMap<>();
        s.lag().partitions().forEach(p -> {
            if (p.seconds() != null) {
                oldest.merge(p.topic(), p.seconds(), Math::max);
            }
        });
        return oldest;
    }

    /** Counts a scale that went ahead, and remembers its pause. */
    public void recordScale(ScaleResult result) {
        String outcome = result.dryRun() ? "dry_run" : result.before() == result.after() ? "unchanged" : "applied";
        scaleActions.labelValues(result.connector(), outcome).inc();
        if (result.rebalancePauseSeconds() != null) {
            rebalancePause.labelValues(result.connector()).set(result.rebalancePauseSeconds());
        }
    }

    /**
     * Counts a scale that did not go ahead, by why. Only a connector the watcher observes is named: any
     * caller can send any name, and a series per name would grow without bound.
     */
    public void recordRefusal(String connector, String kind) {
        String label = watcher.snapshot(connector).isPresent() ? connector : "";
        scaleActions.labelValues(label, kind.toLowerCase(java.util.Locale.ROOT)).inc();
    }

    /** The Prometheus text exposition of every metric. */
    public byte[] scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static String contentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    private void perConnector(String name, String help, Function<PipelineSnapshot, Double> value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames("connector")
                .callback(cb -> each(s -> {
                    Double v = value.apply(s);
                    if (v != null) {
                        cb.call(v, s.name());
                    }
                }))
                .register(registry);
    }

    private void each(Consumer<PipelineSnapshot> action) {
        watcher.snapshots().forEach(action);
    }
}
