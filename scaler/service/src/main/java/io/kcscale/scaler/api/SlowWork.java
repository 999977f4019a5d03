package io.kcscale.scaler.api;

import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * Bounds the requests that wait seconds on other systems (a key sample, a scale waiting for its tasks):
 * at most {@code permits} at once, so that they never hold every request thread and status, metrics
 * and the page stay answered. One more is refused with 503 and Retry-After rather than queued.
 */
final class SlowWork {

    static final String RETRY_AFTER_SECONDS = "5";

    private final Semaphore permits;
    private final int limit;

    SlowWork(int limit) {
        this.limit = limit;
        this.permits = new Semaphore(limit);
    }

    /** {@code endpoint}, run while holding a permit; a 503 when none is free. */
    RouteTable.Endpoint limit(RouteTable.Endpoint endpoint) {
        return call -> {
            if (!permits.tryAcquire()) {
                throw new ApiError(503, "the scaler is already running " + limit + " key samples or scales; retry in "
                        + RETRY_AFTER_SECONDS + " seconds", null, Map.of("Retry-After", RETRY_AFTER_SECONDS));
            }
            try {
                return endpoint.handle(call);
            } finally {
                permits.release();
            }
        };
    }
}
