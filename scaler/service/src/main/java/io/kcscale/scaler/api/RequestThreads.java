package io.kcscale.scaler.api;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads the JDK server runs exchanges on. That server reads a request's headers and body on
 * the thread it hands the exchange to, so a client that announces a body and then waits holds a
 * thread until the request time limit cuts it off: enough threads that dozens of such clients leave
 * some free, and a short bounded queue. When both are full, a request goes to one of two shedding
 * threads that answer 503 with Retry-After at once; when those are busy too, the server closes the
 * connection. Admission counts exchanges, not queue slots: a burst (a page loading its scripts) queued
 * faster than idle threads wake up to take it is not shed.
 */
final class RequestThreads implements Executor {

    private static final int SHEDDING_THREADS = 2;
    private static final int SHEDDING_QUEUE = 16;
    private static final ThreadLocal<Boolean> SHEDDING = ThreadLocal.withInitial(() -> false);

    private final ThreadPoolExecutor workers;
    /** Exchanges running or waiting for a worker: at most threads + queue. */
    private final Semaphore admitted;
    private final ThreadPoolExecutor shedding;

    /** @param threads most exchanges handled at once; @param queue most waiting for a thread */
    RequestThreads(int threads, int queue) {
        // the semaphore bounds this queue
        workers = pool("kcscale-api-", threads, new LinkedBlockingQueue<>());
        admitted = new Semaphore(threads + queue);
        shedding = pool("kcscale-api-busy-", SHEDDING_THREADS, new ArrayBlockingQueue<>(SHEDDING_QUEUE));
    }

    private static ThreadPoolExecutor pool(String name, int threads, BlockingQueue<Runnable> queue) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, queue, task -> {
            Thread thread = new Thread(task, name + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        // a quiet scaler keeps no idle threads; a new one starts per exchange until all are running
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** @throws RejectedExecutionException when the shedding threads are busy as well: the server then closes the connection */
    @Override
    public void execute(Runnable exchange) {
        if (admitted.tryAcquire()) {
            try {
                workers.execute(() -> {
                    try {
                        exchange.run();
                    } finally {
                        admitted.release();
                    }
                });
            } catch (RejectedExecutionException shutDown) {
                admitted.release();
                throw shutDown;
            }
        } else {
            shedding.execute(() -> {
                SHEDDING.set(true);
                try {
                    exchange.run();
                } finally {
                    SHEDDING.remove();
                }
            });
        }
    }

    /** True on a shedding thread: the exchange must be answered 503 without being handled. */
    static boolean shedding() {
        return SHEDDING.get();
    }

    void shutdown() {
        workers.shutdown();
        shedding.shutdown();
    }
}
