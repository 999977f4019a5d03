package io.kcscale.scaler.checks;

/**
 * One Connect worker's CPU as read on its host: a raw fact, no verdict.
 *
 * @param workerId        the worker as Connect names it ({@code host:port})
 * @param processCores    CPU the worker's process used, in cores (CPU-seconds per second) over the interval read
 * @param hostProcessors  the processors of the worker's host
 * @param hostLoadPerCore the host's one-minute load average per processor: at 1 or more, runnable threads already
 *                        wait for a core, so the worker cannot get more CPU than it has
 */
public record WorkerCpu(String workerId, double processCores, int hostProcessors, double hostLoadPerCore) {

    /** Of its host's processors, the share the worker's process used. */
    public double processShare() {
        return hostProcessors > 0 ? processCores / hostProcessors : 0;
    }
}
