package io.kcscale.scaler.checks;

/**
 * One Connect worker's CPU as read from one source, both figures over the same interval: a raw fact, no verdict.
 * A worker no source could read is {@link #unknown}, saying why and what would read it.
 *
 * @param workerId       the worker as Connect names it ({@code host:port})
 * @param processCores   CPU the worker's process used, in cores (CPU-seconds per second); NaN when unknown
 * @param hostProcessors the processors the worker can get: its host's, or its container's limit as its JVM counts them
 * @param hostBusy       the share of the processor time of the worker's host (or container) that was in use (0 to 1);
 *                       {@link Double#NaN} where the source does not give it
 * @param source         where the figures come from
 * @param unknown        why no source read the worker, naming the setting that would; null when read
 */
public record WorkerCpu(
        String workerId,
        double processCores,
        int hostProcessors,
        double hostBusy,
        WorkerCpuSource source,
        String unknown) {

    /** A worker read from its process on the scaler's host. */
    public WorkerCpu(String workerId, double processCores, int hostProcessors, double hostBusy) {
        this(workerId, processCores, hostProcessors, hostBusy, WorkerCpuSource.PROC, null);
    }

    /** A worker read from {@code source}. */
    public static WorkerCpu read(
            String workerId, double processCores, int processors, double hostBusy, WorkerCpuSource source) {
        return new WorkerCpu(workerId, processCores, processors, hostBusy, source, null);
    }

    /** A worker whose CPU no source gave: {@code why} says what was tried and which setting would read it. */
    public static WorkerCpu unknown(String workerId, String why) {
        return new WorkerCpu(workerId, Double.NaN, 0, Double.NaN, null, why);
    }

    /** Whether a source gave the worker's CPU. */
    public boolean known() {
        return unknown == null;
    }

    /** Of its processors, the share the worker's process used. */
    public double processShare() {
        return known() && hostProcessors > 0 ? processCores / hostProcessors : 0;
    }

    /** Whether the host's processor time in use was read. */
    public boolean hostBusyRead() {
        return !Double.isNaN(hostBusy);
    }

    /** Of the CPU in use on the host, the share the worker's process used (at most 1); 0 when the host was not read. */
    public double shareOfHostUse() {
        double used = hostBusyRead() ? hostBusy * hostProcessors : 0;
        return used > 0 ? Math.min(1, processCores / used) : 0;
    }
}
