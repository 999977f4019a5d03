package io.kcscale.lab.experiment;

import io.kcscale.scaler.checks.WorkerCpu;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code results.csv}: one row per task count. The columns {@code tasks} and {@code sustainedRate} are
 * what {@code predict tasks --measurements} reads; per-task rates are joined by ';' so that the file
 * stays one value per comma-separated cell. Rates in records/s, latencies in milliseconds; a figure
 * that was not measured (no sustained rate) is empty. {@code workerCapacity} is the worker-capacity check's severity
 * for one task more at full speed, with the busiest worker's process cores and the share of its host's time in use
 * (empty where the host gives no counters).
 */
final class ResultsCsv {

    static final String HEADER = "tasks,sustainedRate,perTaskRate,throughput,perTaskThroughput,fullSpeedRate,"
            + "p50LatencyMs,p99LatencyMs,latencySamples,littleLatencyMs,lagSlopePerSecond,finalLag,trials,loadAverage,"
            + "workerCapacity,workerProcessCores,hostBusy";

    private ResultsCsv() {}

    static String write(List<Sweep.Row> rows) {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (Sweep.Row r : rows) {
            TrialResult t = r.sustained().orElse(null);
            Latency latency = t == null ? null : t.latency().orElse(null);
            WorkerCapacityProbe.Reading capacity = r.fullSpeed().workerCapacity();
            Optional<WorkerCpu> busiest = capacity == null ? Optional.empty() : capacity.busiest();
            csv.append(String.join(
                            ",",
                            String.valueOf(r.tasks()),
                            number(r.sustainedRate()),
                            number(r.sustainedRate() / r.tasks()),
                            t == null ? "" : number(t.throughput().total()),
                            t == null
                                    ? ""
                                    : t.throughput().perTask().stream()
                                            .map(ResultsCsv::number)
                                            .collect(Collectors.joining(";")),
                            number(r.fullSpeed().throughput().total()),
                            latency == null ? "" : number(latency.p50Millis()),
                            latency == null ? "" : number(latency.p99Millis()),
                            latency == null ? "" : String.valueOf(latency.samples()),
                            t == null ? "" : number(t.littleSeconds() * 1000),
                            t == null ? "" : number(t.verdict().slopePerSecond()),
                            t == null ? "" : number(t.verdict().finalLag()),
                            String.valueOf(r.search().tried().size()),
                            String.valueOf(r.loadAverage()),
                            capacity == null
                                    ? ""
                                    : capacity.finding().severity().label(),
                            busiest.map(w -> number2(w.processCores())).orElse(""),
                            busiest.filter(WorkerCpu::hostBusyRead)
                                    .map(w -> number2(w.hostBusy()))
                                    .orElse("")))
                    .append('\n');
        }
        return csv.toString();
    }

    private static String number2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String number(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
