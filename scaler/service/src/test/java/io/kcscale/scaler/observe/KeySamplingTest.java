package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.checks.keys.KeyTally;
import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.poll.Poll;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KeySamplingTest {

    private static final SampleBudget BUDGET = new SampleBudget(1_000, Duration.ofSeconds(5));
    private static final long WAIT_SECONDS = 10;

    private final ExecutorService callers = Executors.newCachedThreadPool();
    /** Samples started, per topic; each waits for {@link #release}. */
    private final ConcurrentHashMap<String, AtomicInteger> started = new ConcurrentHashMap<>();

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch firstStarted = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        callers.shutdownNow();
    }

    private KeySample blockedSample(String topic, SampleBudget budget) {
        started.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet();
        firstStarted.countDown();
        try {
            if (!release.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new KeyTally().sample(topic, 1, 1, 1, "end", List.of(0));
    }

    @Test
    void aSecondRequestForATopicBeingSampledJoinsThatSample() throws Exception {
        try (KeySampling sampling = new KeySampling(this::blockedSample, 2, 1, Duration.ofSeconds(5))) {
            Future<KeySample> first = callers.submit(() -> sampling.sample("orders", BUDGET));
            assertTrue(firstStarted.await(WAIT_SECONDS, TimeUnit.SECONDS));
            FutureTask<KeySample> second = new FutureTask<>(() -> sampling.sample("orders", BUDGET));
            FutureTask<KeySample> third = new FutureTask<>(() -> sampling.sample("orders", BUDGET));
            List<Thread> joiners = List.of(new Thread(second), new Thread(third));
            joiners.forEach(Thread::start);
            // a request that joined waits for the running sample's answer
            Poll.untilTrue(
                    "both requests waiting",
                    Duration.ofSeconds(WAIT_SECONDS),
                    Duration.ofMillis(10),
                    () -> joiners.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING),
                    joiners::toString);
            release.countDown();
            KeySample sample = first.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertSame(sample, second.get(WAIT_SECONDS, TimeUnit.SECONDS));
            assertSame(sample, third.get(WAIT_SECONDS, TimeUnit.SECONDS));
            assertEquals(1, started.get("orders").get(), "one sample of the topic for three requests");
        }
    }

    @Test
    void aRequestWithAnotherBudgetSamplesOnItsOwnRatherThanWaitOnALongerSample() throws Exception {
        try (KeySampling sampling = new KeySampling(this::blockedSample, 2, 1, Duration.ofSeconds(5))) {
            callers.submit(() -> sampling.sample("orders", new SampleBudget(1_000, Duration.ofSeconds(60))));
            assertTrue(firstStarted.await(WAIT_SECONDS, TimeUnit.SECONDS));
            Future<KeySample> shorter = callers.submit(() -> sampling.sample("orders", BUDGET));
            Poll.untilTrue(
                    "a second sample of the topic",
                    Duration.ofSeconds(WAIT_SECONDS),
                    Duration.ofMillis(10),
                    () -> started.get("orders").get() == 2,
                    () -> started.get("orders") + " samples started");
            release.countDown();
            assertEquals("orders", shorter.get(WAIT_SECONDS, TimeUnit.SECONDS).topic());
        }
    }

    @Test
    void pastItsThreadsAndQueueAnotherTopicIsRefusedAtOnce() throws Exception {
        try (KeySampling sampling = new KeySampling(this::blockedSample, 1, 1, Duration.ofSeconds(5))) {
            callers.submit(() -> sampling.sample("a", BUDGET));
            assertTrue(firstStarted.await(WAIT_SECONDS, TimeUnit.SECONDS));
            // one thread sampling a, a queue of one: of b and c, whichever comes second is refused
            List<Future<KeySample>> two = List.of(
                    callers.submit(() -> sampling.sample("b", BUDGET)),
                    callers.submit(() -> sampling.sample("c", BUDGET)));
            Future<KeySample> refused = Poll.until(
                    "one of two refused",
                    Duration.ofSeconds(WAIT_SECONDS),
                    Duration.ofMillis(20),
                    () -> two.stream().filter(Future::isDone).findFirst());
            ExecutionException e = assertThrows(ExecutionException.class, refused::get);
            assertEquals(
                    "the scaler is already running 2 key samples; retry in a few seconds",
                    e.getCause().getMessage());
            assertTrue(e.getCause() instanceof KeySampling.Busy, e.toString());
            release.countDown();
            Future<KeySample> queued = two.get(0) == refused ? two.get(1) : two.get(0);
            assertEquals(
                    Set.of("a", queued.get(WAIT_SECONDS, TimeUnit.SECONDS).topic()),
                    started.keySet(),
                    "the refused topic was never sampled");
            assertEquals("d", sampling.sample("d", BUDGET).topic(), "a topic is sampled again once there is room");
        }
    }

    @Test
    void aCallerWaitsNoLongerThanItsBudgetAndTheOverhead() {
        try (KeySampling sampling = new KeySampling(this::blockedSample, 1, 1, Duration.ofMillis(200))) {
            long started = System.nanoTime();
            KeySampling.Busy busy = assertThrows(
                    KeySampling.Busy.class,
                    () -> sampling.sample("slow", new SampleBudget(1_000, Duration.ofMillis(300))));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(waited >= 500 && waited < 5_000, "waited " + waited + " ms");
            assertEquals("the key sample of slow did not end within 0 s", busy.getMessage());
        }
    }

    @Test
    void aFailedSampleFailsEveryRequestThatJoinedItAndTheNextOneSamplesAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CompletableFuture<Void> gate = new CompletableFuture<>();
        KeySampling.Sampler failing = (topic, budget) -> {
            calls.incrementAndGet();
            firstStarted.countDown();
            gate.join();
            throw new KafkaUnavailableException("cannot sample " + topic + ": broker down", null);
        };
        try (KeySampling sampling = new KeySampling(failing, 1, 1, Duration.ofSeconds(5))) {
            Future<KeySample> first = callers.submit(() -> sampling.sample("orders", BUDGET));
            assertTrue(firstStarted.await(WAIT_SECONDS, TimeUnit.SECONDS));
            Future<KeySample> joined = callers.submit(() -> sampling.sample("orders", BUDGET));
            // the second request must have joined before the first fails, or it would start a sample of its own
            Poll.untilTrue(
                    "the second request to join the running sample",
                    Duration.ofSeconds(WAIT_SECONDS),
                    Duration.ofMillis(5),
                    () -> sampling.waiting("orders", BUDGET) == 2,
                    () -> sampling.waiting("orders", BUDGET) + " waiting");
            gate.complete(null);
            for (Future<KeySample> request : List.of(first, joined)) {
                Exception e = assertThrows(Exception.class, () -> request.get(WAIT_SECONDS, TimeUnit.SECONDS));
                assertTrue(e.getCause() instanceof KafkaUnavailableException, e.toString());
            }
            assertThrows(KafkaUnavailableException.class, () -> sampling.sample("orders", BUDGET));
            assertEquals(2, calls.get());
        }
    }
}
