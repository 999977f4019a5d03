package io.kcscale.scaler.connect;

import java.time.Duration;

/**
 * A bounded exponential back-off: how often, and how long apart, a request that Connect answered
 * with 409 or a 500 "rebalance is expected" (its worker group is rebalancing) is tried again.
 */
public record Backoff(int maxAttempts, Duration initialDelay, Duration maxDelay) {

    /** Enough to ride out a worker-group rebalance of some tens of seconds, never unbounded. */
    public static final Backoff DEFAULT = new Backoff(12, Duration.ofMillis(250), Duration.ofSeconds(5));

    public Backoff {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        if (initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("need 0 <= initialDelay <= maxDelay");
        }
    }

    /** The wait before attempt {@code attempt + 1}, for attempt = 1, 2, ... */
    public Duration delayAfter(int attempt) {
        long millis = initialDelay.toMillis() << Math.min(attempt - 1, 20);
        return Duration.ofMillis(Math.min(millis, maxDelay.toMillis()));
    }
}
