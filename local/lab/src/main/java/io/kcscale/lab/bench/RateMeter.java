package io.kcscale.lab.bench;

import java.time.Duration;
import java.util.function.LongSupplier;

/** The rate of a growing counter (records in a topic, index operations) over a window after a warm-up. */
final class RateMeter {

    private final Duration warmup;
    private final Duration window;

    RateMeter(Duration warmup, Duration window) {
        this.warmup = warmup;
        this.window = window;
    }

    Duration warmup() {
        return warmup;
    }

    Duration window() {
        return window;
    }

    /** Lets {@code counter} warm up, then counts its growth over the window: per second. */
    double perSecond(LongSupplier counter) {
        pause(warmup);
        long from = counter.getAsLong();
        long start = System.nanoTime();
        pause(window);
        long to = counter.getAsLong();
        return (to - from) / ((System.nanoTime() - start) / 1e9);
    }

    /** A measurement window is a span of time to let pass, not a condition to wait for. */
    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring", e);
        }
    }
}
