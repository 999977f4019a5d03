package io.kcscale.scaler.observe;

import io.kcscale.scaler.checks.WorkerCpu;
import io.kcscale.scaler.checks.WorkerCpuRates;
import io.kcscale.scaler.checks.WorkerCpuSource;
import io.kcscale.scaler.ports.WorkerCpuReadings;
import io.kcscale.scaler.prometheus.ExporterCpuReader;
import io.kcscale.scaler.prometheus.PrometheusCpuReader;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The workers' CPU from the sources the settings give, each worker from the first that reads it: its exporter,
 * then Prometheus, then its process when it runs on the scaler's host. A worker none reads comes back unknown with
 * every source's reason, so that the finding names the setting that would read it.
 */
public final class WorkerCpuSources implements WorkerCpuReadings {

    /** Workers read in one call at most (the first by id); a group this large is rare, and a check must stay short. */
    static final int MAX_WORKERS = 64;

    private final WorkerCpuSettings settings;
    private final ExporterCpuReader exporter = new ExporterCpuReader(System::currentTimeMillis);
    private final Optional<PrometheusCpuReader> prometheus;
    private final WorkerCpuMeter processes = new WorkerCpuMeter();

    public WorkerCpuSources(WorkerCpuSettings settings) {
        this.settings = settings;
        this.prometheus = settings.prometheusUrl().map(PrometheusCpuReader::new);
    }

    /** Reads the workers named (Connect's {@code host:port} ids). */
    @Override
    public WorkerCpuReadings.Result read(Collection<String> workerIds) {
        if (workerIds.isEmpty()) {
            return new WorkerCpuReadings.Result(null, "Connect named no worker running the sink's tasks");
        }
        Map<String, List<WorkerCpu>> tried = new TreeMap<>();
        new TreeSet<>(workerIds).forEach(id -> tried.put(id, new ArrayList<>()));
        List<String> left = new ArrayList<>(tried.keySet());
        for (String beyond : left.subList(Math.min(MAX_WORKERS, left.size()), left.size())) {
            tried.get(beyond)
                    .add(WorkerCpu.unknown(beyond, "beyond the " + MAX_WORKERS + " workers read in one check"));
        }
        left = new ArrayList<>(left.subList(0, Math.min(MAX_WORKERS, left.size())));
        for (WorkerCpuSource source : settings.sources()) {
            Map<String, WorkerCpu> read = switch (source) {
                case EXPORTER -> fromExporters(left);
                case PROMETHEUS -> fromPrometheus(left);
                case PROC -> fromProcesses(left);
            };
            read.forEach((id, w) -> tried.get(id).add(w));
            left.removeIf(id -> read.containsKey(id) && read.get(id).known());
        }
        if (settings.only().isEmpty() && settings.sources().equals(List.of(WorkerCpuSource.PROC))) {
            left.forEach(id -> tried.get(id)
                    .add(WorkerCpu.unknown(
                            id,
                            "no exporter or Prometheus is set to read it (" + WorkerCpuSource.EXPORTER.flag() + ", "
                                    + WorkerCpuSource.PROMETHEUS.flag() + ")")));
        }
        List<WorkerCpu> workers = new ArrayList<>();
        tried.forEach((id, readings) -> workers.add(WorkerCpuRates.chosen(id, readings)));
        return new WorkerCpuReadings.Result(workers, null);
    }

    private Map<String, WorkerCpu> fromExporters(List<String> ids) {
        Map<String, URI> urls = new TreeMap<>();
        Map<String, WorkerCpu> read = new TreeMap<>();
        for (String id : ids) {
            settings.metricsUrl(id)
                    .ifPresentOrElse(
                            u -> urls.put(id, u),
                            () -> read.put(
                                    id,
                                    WorkerCpu.unknown(
                                            id,
                                            "exporter: " + WorkerCpuSource.EXPORTER.flag() + " gives no URL for it")));
        }
        read.putAll(exporter.read(urls));
        return read;
    }

    private Map<String, WorkerCpu> fromPrometheus(List<String> ids) {
        Map<String, String> instances = new TreeMap<>();
        Map<String, WorkerCpu> read = new TreeMap<>();
        for (String id : ids) {
            settings.instance(id)
                    .ifPresentOrElse(
                            instance -> instances.put(id, instance),
                            () -> read.put(
                                    id,
                                    WorkerCpu.unknown(
                                            id,
                                            "prometheus: " + WorkerCpuSource.EXPORTER.flag()
                                                    + " gives no exporter (instance label) for it")));
        }
        read.putAll(prometheus.orElseThrow().read(instances));
        return read;
    }

    private Map<String, WorkerCpu> fromProcesses(List<String> ids) {
        Map<String, WorkerCpu> read = new TreeMap<>();
        if (ids.isEmpty()) {
            return read;
        }
        WorkerCpuReadings.Result local = processes.read(ids);
        if (local.workers() != null) {
            local.workers().forEach(w -> read.put(w.workerId(), w));
        }
        ids.stream()
                .filter(id -> !read.containsKey(id))
                .forEach(id -> read.put(id, WorkerCpu.unknown(id, "proc: no process of it on the scaler's host")));
        return read;
    }
}
