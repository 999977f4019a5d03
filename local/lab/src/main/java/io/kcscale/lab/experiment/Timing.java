package io.kcscale.lab.experiment;

import java.time.Duration;

/**
 * How long an experiment looks at each point, and how many points it tries.
 *
 * @param settle         after a rate change, before the hold: the source task restarts and the lag settles
 * @param hold           the window a rate's lag is judged over
 * @param warmup         before a full-speed window: the tasks reach speed after their rebalance
 * @param window         the full-speed window
 * @param trials         bisection trials per task count
 * @param latencySamples documents sampled per shard for the latency percentiles
 */
public record Timing(Duration settle, Duration hold, Duration warmup, Duration window, int trials, int latencySamples) {

    /** Under five minutes for any experiment on two cores (CI). */
    public static final Timing QUICK = new Timing(
            Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofSeconds(8), 3, 300);

    public static final Timing FULL = new Timing(
            Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(20), 5, 1000);

    /** The same timing with another full-speed window. */
    public Timing withWindow(Duration fullSpeedWindow) {
        return new Timing(settle, hold, warmup, fullSpeedWindow, trials, latencySamples);
    }

    /** The same timing with another number of bisection trials. */
    public Timing withTrials(int bisectionTrials) {
        return new Timing(settle, hold, warmup, window, bisectionTrials, latencySamples);
    }

    public static Timing of(boolean quick) {
        return quick ? QUICK : FULL;
    }
}
