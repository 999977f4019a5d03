package io.kcscale.scaler.predict;

import java.util.List;

/**
 * The answer of {@code predict workers}. {@code tasks} and {@code tasksPerWorker} are null without a per-task rate.
 *
 * @param cpuSecondsPerRecord CPU one record costs the workers, measured
 * @param recordsPerWorker    records/s one worker's cores carry at the utilization
 */
public record WorkersResult(
        double targetRate,
        double cpuSecondsPerRecord,
        double coresPerWorker,
        double utilization,
        double recordsPerWorker,
        int workers,
        Integer tasks,
        Integer tasksPerWorker,
        List<String> assumptions,
        List<String> advice) {}
