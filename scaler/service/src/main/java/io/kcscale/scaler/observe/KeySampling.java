package io.kcscale.scaler.observe;

import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.checks.keys.SampleBudget;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs key samples (seconds of reading a topic) on a few threads of their own, whoever asks: the
 * checks route, a scale's pre-checks, the autoscaler. One sample of a topic and budget at a time: a request
 * for a topic being sampled with its budget joins that sample and gets its result (its figures say what it
 * read), so a page open in many tabs costs one sample. A request never joins a sample of another budget: a
 * scale's pre-check with the default few seconds would otherwise wait on a check's minute-long sample until
 * its own wait ran out. At most {@code threads} samples at once and {@code queue} waiting; a caller waits at
 * most its budget plus the sampler's overhead.
 */
public final class KeySampling implements AutoCloseable {

    /** Reads a key sample of a topic within a budget; fails with an unchecked exception. */
    @FunctionalInterface
    public interface Sampler {
        KeySample sample(String topic, SampleBudget budget);
    }

    /** No sample to give: too many running, or it did not end in time. */
    public static final class Busy extends RuntimeException {
        Busy(String message) {
            super(message);
        }
    }

    private final Sampler sampler;
    private final ThreadPoolExecutor pool;
    private final int capacity;
    private final Duration overhead;
    private final Map<String, CompletableFuture<KeySample>> running = new ConcurrentHashMap<>();

    /** @param overhead what a sample takes beyond its time budget: finding the partitions and their offsets, closing */
    public KeySampling(Sampler sampler, int threads, int queue, Duration overhead) {
        this.sampler = sampler;
        this.capacity = threads + queue;
        this.overhead = overhead;
        AtomicInteger count = new AtomicInteger();
        pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), task -> {
            Thread thread = new Thread(task, "kcscale-key-sample-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * The topic's sample: the one running now, or a new one within {@code budget}.
     *
     * @throws Busy when as many topics as allowed are being sampled, or the sample did not end in time
     */
    public KeySample sample(String topic, SampleBudget budget) {
        CompletableFuture<KeySample> mine = new CompletableFuture<>();
        String key = topic + " " + budget;
        CompletableFuture<KeySample> sample = running.putIfAbsent(key, mine);
        if (sample == null) {
            sample = mine;
            try {
                // removed before it completes: a request that comes after the answer gets a new sample
                pool.execute(() -> {
                    try {
                        KeySample result = sampler.sample(topic, budget);
                        running.remove(key, mine);
                        mine.complete(result);
                    } catch (RuntimeException e) {
                        running.remove(key, mine);
                        mine.completeExceptionally(e);
                    }
                });
            } catch (RejectedExecutionException e) {
                running.remove(key, mine);
                throw new Busy("the scaler is already running " + capacity + " key samples; retry in a few seconds");
            }
        }
        Duration wait = budget.time().plus(overhead);
        try {
            return sample.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new Busy("the key sample of " + topic + " did not end within " + wait.toSeconds() + " s");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Busy("interrupted while waiting for the key sample of " + topic);
        }
    }

    /** Requests waiting for the topic's running sample of that budget (tests join one with it before it ends). */
    int waiting(String topic, SampleBudget budget) {
        CompletableFuture<KeySample> sample = running.get(topic + " " + budget);
        return sample == null ? 0 : sample.getNumberOfDependents();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
