package io.kcscale.connectors.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PacerTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final FakeClock clock = new FakeClock();

    /** Nanoseconds since the first release of each record released before {@code horizon}. */
    private List<Long> releaseTimes(Pacer pacer, long horizon) throws InterruptedException {
        List<Long> times = new ArrayList<>();
        long start = clock.nanoTime();
        while (clock.nanoTime() - start < horizon) {
            int due = pacer.awaitDue(Integer.MAX_VALUE);
            long time = clock.nanoTime() - start;
            for (int i = 0; i < due && time < horizon; i++) {
                times.add(time);
            }
        }
        return times;
    }

    private static long[] countsPerWindow(List<Long> times, long window, int windows) {
        long[] counts = new long[windows];
        for (long time : times) {
            int index = (int) (time / window);
            if (index < windows) {
                counts[index]++;
            }
        }
        return counts;
    }

    @Test
    void constantRateReleasesEachRecordExactlyWhenDue() throws InterruptedException {
        Pacer pacer = new Pacer(new SteadySchedule(4), clock);

        List<Long> times = releaseTimes(pacer, SECOND + 1);

        assertEquals(List.of(0L, SECOND / 4, SECOND / 2, 3 * SECOND / 4, SECOND), times);
    }

    @Test
    void constantRateDoesNotDriftOverAMillionRecords() throws InterruptedException {
        // 3/s leaves a third of a nanosecond per gap to round, which would add up if gaps were summed
        Pacer pacer = new Pacer(new SteadySchedule(3), clock);
        long start = clock.nanoTime();
        long released = 0;
        while (released < 1_000_001) {
            released += pacer.awaitDue((int) (1_000_001 - released));
        }
        // exactly 10^15 / 3 ns, where summing rounded gaps would have lost a third of a millisecond
        assertEquals(333_333_333_333_333L, clock.nanoTime() - start);
    }

    @Test
    void aLateCallerCatchesUpInBoundedBatches() throws InterruptedException {
        Pacer pacer = new Pacer(new SteadySchedule(1000), clock);
        assertEquals(1, pacer.awaitDue(Integer.MAX_VALUE));

        clock.advance(5 * SECOND);

        assertEquals(7, pacer.awaitDue(7), "the caller's limit bounds the batch");
        assertEquals(Pacer.MAX_BATCH, pacer.awaitDue(Integer.MAX_VALUE));
        assertEquals(Pacer.MAX_BATCH, pacer.awaitDue(Integer.MAX_VALUE));
        long stalledAt = clock.nanoTime();
        int caughtUp = 0;
        while (true) {
            int due = pacer.awaitDue(Integer.MAX_VALUE);
            if (clock.nanoTime() != stalledAt) {
                break;
            }
            caughtUp += due;
        }
        assertEquals(5000 - 7 - 2 * Pacer.MAX_BATCH, caughtUp, "every record due during the stall comes out");
    }

    @Test
    void aDistantRecordIsWaitedForAtMostMaxWaitPerCall() throws InterruptedException {
        Pacer pacer = new Pacer(new SteadySchedule(0.1), clock);
        assertEquals(1, pacer.awaitDue(1));
        long start = clock.nanoTime();

        assertEquals(0, pacer.awaitDue(1));
        assertEquals(Pacer.MAX_WAIT_NANOS, clock.nanoTime() - start);
    }

    @Test
    void aStoppedPacerReleasesNothingAndDoesNotWait() throws InterruptedException {
        Pacer pacer = new Pacer(new SteadySchedule(1000), clock);
        pacer.stop();
        long start = clock.nanoTime();

        assertEquals(0, pacer.awaitDue(Integer.MAX_VALUE));
        pacer.idle();
        assertEquals(start, clock.nanoTime());
    }

    @Test
    void stopWakesARealSleepAtOnce() throws InterruptedException {
        Pacer pacer = new Pacer(new SteadySchedule(1), PacerClock.SYSTEM);
        long[] idledNanos = new long[1];
        Thread idler = new Thread(() -> {
            long start = System.nanoTime();
            try {
                pacer.idle();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            idledNanos[0] = System.nanoTime() - start;
        });
        idler.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (idler.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(Thread.State.TIMED_WAITING, idler.getState(), "the idler should be waiting");

        pacer.stop();
        idler.join(TimeUnit.SECONDS.toMillis(10));

        assertTrue(idledNanos[0] < Pacer.MAX_WAIT_NANOS / 2, "idled " + idledNanos[0] + " ns after stop");
    }

    @Test
    void poissonCountsPerWindowHaveVarianceEqualToMean() throws InterruptedException {
        Pacer pacer = new Pacer(RandomGapSchedule.poisson(200, new Random(42)), clock);
        long window = SECOND / 10;
        int windows = 5000;

        long[] counts = countsPerWindow(releaseTimes(pacer, windows * window), window, windows);

        double mean = 0;
        for (long count : counts) {
            mean += count;
        }
        mean /= windows;
        double variance = 0;
        for (long count : counts) {
            variance += (count - mean) * (count - mean);
        }
        variance /= windows - 1;
        assertEquals(20.0, mean, 20.0 * 0.03, "mean per window at 200/s");
        double dispersion = variance / mean;
        assertTrue(dispersion >= 0.8 && dispersion <= 1.2, "variance/mean " + dispersion);
    }

    @Test
    void constantArrivalsHaveNoVarianceAcrossWindows() throws InterruptedException {
        Pacer pacer = new Pacer(new SteadySchedule(200), clock);
        long window = SECOND / 10;

        long[] counts = countsPerWindow(releaseTimes(pacer, 100 * window), window, 100);

        long[] twenty = new long[100];
        Arrays.fill(twenty, 20);
        assertArrayEquals(twenty, counts);
    }

    @Test
    void burstsFollowTheSquareWave() throws InterruptedException {
        // 100/s for 1 s of every 5 s, 10/s otherwise
        Pacer pacer = new Pacer(new BurstSchedule(10, 100, 1, 5), clock);

        long[] perSecond = countsPerWindow(releaseTimes(pacer, 10 * SECOND), SECOND, 10);

        assertArrayEquals(new long[] {100, 10, 10, 10, 10, 100, 10, 10, 10, 10}, perSecond);
    }

    @Test
    void withoutARateEachGapIsUniformUpToMaxInterval() throws InterruptedException {
        Pacer pacer = new Pacer(RandomGapSchedule.uniform(500, new Random(7)), clock);

        List<Long> times = releaseTimes(pacer, 2000 * SECOND);

        double meanGapMs = (times.get(times.size() - 1) - times.get(0)) / 1e6 / (times.size() - 1);
        assertEquals(250.0, meanGapMs, 250.0 * 0.03);
        for (int i = 1; i < times.size(); i++) {
            long gap = times.get(i) - times.get(i - 1);
            assertTrue(gap >= 0 && gap <= TimeUnit.MILLISECONDS.toNanos(500), "gap " + gap);
        }
    }

    @Test
    void zeroMaxIntervalReleasesFullBatchesWithoutWaiting() throws InterruptedException {
        Pacer pacer = new Pacer(RandomGapSchedule.uniform(0, new Random(7)), clock);
        long start = clock.nanoTime();

        assertEquals(Pacer.MAX_BATCH, pacer.awaitDue(Integer.MAX_VALUE));
        assertEquals(Pacer.MAX_BATCH, pacer.awaitDue(Integer.MAX_VALUE));
        assertEquals(start, clock.nanoTime());
    }
}
