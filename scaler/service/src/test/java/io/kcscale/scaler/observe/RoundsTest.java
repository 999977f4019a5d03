package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RoundsTest {

    @Test
    void aCallerAloneRunsItsOwnRound() {
        Rounds rounds = new Rounds(Duration.ofSeconds(5));
        AtomicInteger ran = new AtomicInteger();
        assertTrue(rounds.runFresh(ran::incrementAndGet));
        assertTrue(rounds.runFresh(ran::incrementAndGet));
        assertEquals(2, ran.get(), "one after another, each caller gets a round of its own");
    }

    @Test
    void callersArrivingDuringARoundShareOneFreshRoundAfterIt() throws Exception {
        Rounds rounds = new Rounds(Duration.ofSeconds(30));
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        CountDownLatch inFlight = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = new Thread(() -> rounds.runFresh(() -> {
            ran.incrementAndGet();
            inFlight.countDown();
            await(release);
        }));
        first.start();
        List<Thread> late = new ArrayList<>();
        try {
            assertTrue(inFlight.await(10, TimeUnit.SECONDS));
            for (int i = 0; i < 8; i++) {
                Thread t = new Thread(() -> {
                    if (rounds.runFresh(ran::incrementAndGet)) {
                        answered.incrementAndGet();
                    }
                });
                t.start();
                late.add(t);
            }
            // each late caller parked on the round in flight (timed wait for the lock) before that round ends
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!late.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING)
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(
                    late.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING), "the late callers wait");
        } finally {
            release.countDown();
        }
        first.join(10_000);
        for (Thread t : late) {
            t.join(10_000);
        }
        assertEquals(8, answered.get());
        assertEquals(2, ran.get(), "the round in flight, then one fresh round for all eight late callers");
    }

    @Test
    void aRoundThatOutlastsTheWaitLeavesTheCallerWithoutARound() throws Exception {
        Rounds rounds = new Rounds(Duration.ofMillis(50));
        CountDownLatch inFlight = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread stuck = new Thread(() -> rounds.runFresh(() -> {
            inFlight.countDown();
            await(release);
        }));
        stuck.start();
        try {
            assertTrue(inFlight.await(10, TimeUnit.SECONDS));
            AtomicInteger ran = new AtomicInteger();
            assertFalse(rounds.runFresh(ran::incrementAndGet));
            assertEquals(0, ran.get());
        } finally {
            release.countDown();
            stuck.join(10_000);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
