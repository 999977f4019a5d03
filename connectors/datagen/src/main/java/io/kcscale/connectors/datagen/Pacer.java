package io.kcscale.connectors.datagen;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Releases records when the {@link ArrivalSchedule} says they are due, measured from the first call.
 * Each call hands out every record due by now (bounded), and otherwise waits only until the next one
 * is due, so the achieved rate follows the schedule instead of accumulating per-record sleep error.
 * A task that fell behind catches up in bounded batches.
 */
final class Pacer {

    /** Most records released at once, bounding the batch one poll builds. */
    static final int MAX_BATCH = 1000;
    /** Longest single wait, so a slow schedule still hands control back to the worker regularly. */
    static final long MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ArrivalSchedule schedule;
    private final PacerClock clock;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private boolean started;
    private long startNanos;
    private long nextDueNanos;

    Pacer(ArrivalSchedule schedule, PacerClock clock) {
        this.schedule = schedule;
        this.clock = clock;
    }

    /**
     * Waits until the next record is due, then returns how many are due now, at most {@code limit}
     * and {@link #MAX_BATCH}. Returns 0 once stopped, or if nothing fell due within
     * {@link #MAX_WAIT_NANOS}. The caller must produce exactly the number returned.
     */
    int awaitDue(int limit) throws InterruptedException {
        long now = clock.nanoTime();
        if (!started) {
            started = true;
            startNanos = now;
            nextDueNanos = startNanos + schedule.nextOffsetNanos();
        }
        long wait = nextDueNanos - now;
        if (wait > 0) {
            clock.sleep(Math.min(wait, MAX_WAIT_NANOS), stopped);
            now = clock.nanoTime();
        }
        if (isStopped()) {
            return 0;
        }
        int cap = Math.min(limit, MAX_BATCH);
        int due = 0;
        while (due < cap && nextDueNanos - now <= 0) {
            due++;
            nextDueNanos = startNanos + schedule.nextOffsetNanos();
        }
        return due;
    }

    /** Waits as {@link #awaitDue} would with nothing due, for a task that has nothing more to produce. */
    void idle() throws InterruptedException {
        if (!isStopped()) {
            clock.sleep(MAX_WAIT_NANOS, stopped);
        }
    }

    /** Ends every current and future wait at once; safe to call from any thread. */
    void stop() {
        stopped.countDown();
    }

    private boolean isStopped() {
        return stopped.getCount() == 0;
    }
}
