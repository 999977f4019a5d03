package io.kcscale.scaler.checks;

/**
 * One Connect worker's CPU as read on its host, both over the same interval: a raw fact, no verdict.
 *
 * @param workerId       the worker as Connect names it ({@code host:port})
 * @param processCores   CPU the worker's process used, in cores (CPU-seconds per second)
 * @param hostProcessors the processors of the worker's host
 * @param hostBusy       the share of the host's processor time that was in use (0 to 1, from the kernel's
 *                       counters); {@link Double#NaN} where the host does not give them
 */
public record WorkerCpu(String workerId, double processCores, int hostProcessors, double hostBusy) {

    /** Of its host's processors, the share the worker's process used. */
    public double processShare() {
        return hostProcessors > 0 ? processCores / hostProcessors : 0;
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
