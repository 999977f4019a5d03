package io.kcscale.connectors.datagen;

import java.util.concurrent.CountDownLatch;

/** A clock whose sleeps return at once, having moved time on by exactly the requested amount. */
final class FakeClock implements PacerClock {

    private long now = 1_000_000_000L;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void sleep(long nanos, CountDownLatch stopped) {
        if (stopped.getCount() > 0) {
            now += nanos;
        }
    }

    /** Time passing outside a sleep, as when the worker is slow to poll again. */
    void advance(long nanos) {
        now += nanos;
    }
}
