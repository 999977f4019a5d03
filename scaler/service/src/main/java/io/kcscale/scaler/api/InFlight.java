package io.kcscale.scaler.api;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Counts the exchanges being handled, so that a stop can let them finish: the JDK 17 server's own
 * {@code stop(delay)} waits out the whole delay even when idle.
 */
final class InFlight extends Filter {

    private int exchanges;

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        synchronized (this) {
            exchanges++;
        }
        try {
            chain.doFilter(exchange);
        } finally {
            synchronized (this) {
                if (--exchanges == 0) {
                    notifyAll();
                }
            }
        }
    }

    /** Waits until no exchange is in flight or the timeout passes; true when idle. */
    synchronized boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (long left = unit.toNanos(timeout); exchanges > 0 && left > 0; left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return exchanges == 0;
    }

    @Override
    public String description() {
        return "counts exchanges in flight";
    }
}
