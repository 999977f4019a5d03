package io.kcscale.connectors.datagen;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The time source and sleeper the {@link Pacer} uses; tests substitute one that jumps instantly. */
interface PacerClock {

    /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Waits up to {@code nanos}, returning early once {@code stopped} has been counted down. */
    void sleep(long nanos, CountDownLatch stopped) throws InterruptedException;

    /** Real time; a stop wakes the sleeper at once. */
    PacerClock SYSTEM = new PacerClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long nanos, CountDownLatch stopped) throws InterruptedException {
            stopped.await(nanos, TimeUnit.NANOSECONDS);
        }
    };
}
