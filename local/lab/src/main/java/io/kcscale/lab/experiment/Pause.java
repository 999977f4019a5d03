package io.kcscale.lab.experiment;

import java.time.Duration;

/** A measurement window is a span of time to let pass, not a state to wait for: the one place that sleeps. */
public final class Pause {

    private Pause() {}

    public static void of(Duration duration) {
        until(System.nanoTime() + duration.toNanos());
    }

    public static void until(long deadlineNanos) {
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0) {
            return;
        }
        try {
            Thread.sleep(remaining / 1_000_000, (int) (remaining % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring", e);
        }
    }
}
