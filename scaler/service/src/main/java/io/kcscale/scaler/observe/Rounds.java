package io.kcscale.scaler.observe;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs sampling rounds single-flight: one at a time, and a caller who arrives while a round runs waits
 * for it, then for one round that started after its arrival, which it runs itself unless another caller
 * did. So any number of requests asking for a fresh reading at once cost one round beside the loop, not
 * one each, and no caller gets a reading older than its call.
 */
final class Rounds {

    private final ReentrantLock running = new ReentrantLock();
    private final Duration wait;
    /** Rounds started; written only while {@link #running} is held. */
    private volatile long started;

    /** @param wait how long a caller waits for the round in flight before giving up */
    Rounds(Duration wait) {
        this.wait = wait;
    }

    /**
     * Runs {@code round} unless a round that started after this call has already run to its end.
     *
     * @return false when the round in flight outlasted the wait: nothing ran for this caller
     */
    boolean runFresh(Runnable round) {
        long startedBefore = started;
        try {
            if (!running.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            // holding the lock, every started round has ended: one numbered past startedBefore began after this call
            if (started > startedBefore) {
                return true;
            }
            started++;
            round.run();
            return true;
        } finally {
            running.unlock();
        }
    }
}
