package io.kcscale.scaler.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.checks.WorkerCpuSource;
import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a Prometheus server scraping the workers' exporters holds of the sink tasks, in one instant query for every
 * worker and connector asked: the series of {@link TaskSeries}, each worker's by the {@code instance} label of its
 * exporter. A worker Prometheus holds no series of is read as holding no task, which the snapshot says per task.
 */
public final class PrometheusTaskReader {

    static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Every partition's lag of every task asked: a few hundred bytes a series. */
    static final int MAX_BYTES = 4 << 20;

    private final URI server;
    private final BoundedGet get = new BoundedGet(TIMEOUT, MAX_BYTES);

    public PrometheusTaskReader(URI server) {
        this.server = server;
    }

    /**
     * @param instances each worker's exporter {@code instance} label, by worker
     * @param topics    each connector to read, with its topics
     */
    public Map<String, ExporterTaskReader.Result> read(
            Map<String, String> instances, Map<String, List<String>> topics) {
        Map<String, ExporterTaskReader.Result> read = new TreeMap<>();
        if (instances.isEmpty() || topics.isEmpty()) {
            return read;
        }
        String query = "{__name__=~\"" + String.join("|", new TreeSet<>(TaskSeries.NAMES)) + "\",connector=~\""
                + topics.keySet().stream().map(PrometheusCpuReader::escaped).collect(Collectors.joining("|"))
                + "\",instance=~\""
                + new TreeSet<>(instances.values())
                        .stream().map(PrometheusCpuReader::escaped).collect(Collectors.joining("|"))
                + "\"}";
        URI uri = server.resolve("/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        Map<String, TaskSeries> byInstance = new HashMap<>();
        try {
            for (JsonNode series : PrometheusCpuReader.result(get.body(uri, get.start(uri)), server.toString())) {
                JsonNode metric = series.path("metric");
                JsonNode value = series.path("value");
                String instance = metric.path("instance").asText(null);
                if (instance == null || value.size() != 2) {
                    continue;
                }
                Map<String, String> labels = new HashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> l = metric.fields(); l.hasNext(); ) {
                    Map.Entry<String, JsonNode> label = l.next();
                    labels.put(label.getKey(), label.getValue().asText());
                }
                double v;
                try {
                    v = ExpositionSample.number(value.get(1).asText());
                } catch (NumberFormatException e) {
                    continue;
                }
                byInstance
                        .computeIfAbsent(instance, i -> new TaskSeries(topics))
                        .add(labels.getOrDefault("__name__", ""), labels, v);
            }
        } catch (MetricsReadException e) {
            String why = WorkerCpuSource.PROMETHEUS.label() + ": " + e.getMessage();
            instances.keySet().forEach(worker -> read.put(worker, new ExporterTaskReader.Result(Map.of(), why)));
            return read;
        }
        instances.forEach((worker, instance) -> {
            TaskSeries series = byInstance.get(instance);
            read.put(
                    worker,
                    series == null
                            ? new ExporterTaskReader.Result(
                                    Map.of(),
                                    "prometheus: no series of the sink's tasks of instance " + instance
                                            + " (does it scrape that exporter?)")
                            : new ExporterTaskReader.Result(series.tasks(WorkerCpuSource.PROMETHEUS.label()), null));
        });
        return read;
    }
}
