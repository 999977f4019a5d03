package io.kcscale.lab.experiment;

import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.WorkerCapacityCheck;
import io.kcscale.scaler.checks.WorkerCpu;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.observe.WorkerCpuMeter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The scaler's {@code worker-capacity} check at a task count an experiment measures: the workers' CPU read
 * (as the scaler reads it, from their processes on this host) over a full-speed window, and judged for one
 * task more, as the autoscaler asks before it adds one.
 */
final class WorkerCapacityProbe {

    /**
     * @param finding the check's finding for one task more
     * @param workers each worker's CPU over the window; empty when it could not be read (the finding says why)
     */
    record Reading(Finding finding, List<WorkerCpu> workers) {

        /** The worker whose process used the largest share of its host, if any was read. */
        Optional<WorkerCpu> busiest() {
            return workers.stream().max((a, b) -> Double.compare(a.processShare(), b.processShare()));
        }

        /** The severity and the busiest worker, in words for a table: "critical: 0.74 of 2 cores, host 91% busy". */
        String summary() {
            String severity = finding.severity().label();
            return busiest()
                    .map(w -> String.format(
                            Locale.ROOT,
                            "%s: %.2f of %d cores, %s",
                            severity,
                            w.processCores(),
                            w.hostProcessors(),
                            WorkerCapacityCheck.hostBusy(w)))
                    .orElse(severity + ": CPU not read");
        }
    }

    private final WorkerCpuMeter meter = new WorkerCpuMeter();
    private final Supplier<List<PipelineSnapshot.Task>> placement;

    /** @param placement the sink's tasks and the workers they run on, as Connect says now */
    WorkerCapacityProbe(Supplier<List<PipelineSnapshot.Task>> placement) {
        this.placement = placement;
    }

    /** Starts the interval the workers' CPU is read over. */
    void start() {
        meter.read(workerIds(placement.get()));
    }

    /** The workers' CPU since {@link #start}, judged for one task more than run now. */
    Reading read() {
        List<PipelineSnapshot.Task> tasks = placement.get();
        WorkerCpuMeter.Result cpu = meter.read(workerIds(tasks));
        Finding finding = WorkerCapacityCheck.judge(tasks, tasks.size() + 1, cpu.workers(), cpu.unavailable());
        return new Reading(finding, cpu.workers() == null ? List.of() : cpu.workers());
    }

    private static List<String> workerIds(List<PipelineSnapshot.Task> tasks) {
        return tasks.stream()
                .map(PipelineSnapshot.Task::workerId)
                .filter(Objects::nonNull)
                .distinct()
                .toList();
    }
}
