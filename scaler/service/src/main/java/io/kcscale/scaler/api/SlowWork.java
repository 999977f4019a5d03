package io.kcscale.scaler.api;

import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * One kind of work that holds the scaler for long (a key sample, a scale, a fit), bounded to a few at once.
 * Each kind has permits of its own, so that one kind, however many clients ask for it, never takes the
 * permits another needs: unauthenticated checks that sample for a minute leave a token holder's scale its own.
 */
final class SlowWork {

    static final String RETRY_AFTER_SECONDS = "5";

    private final String what;
    private final Semaphore permits;
    private final int limit;

    /** @param what the work in the plural, for the 503's message ("checks", "scales", "predictions") */
    SlowWork(String what, int limit) {
        this.what = what;
        this.limit = limit;
        this.permits = new Semaphore(limit);
    }

    /** {@code endpoint}, run while holding a permit; a 503 when none is free. */
    RouteTable.Endpoint limit(RouteTable.Endpoint endpoint) {
        return call -> {
            acquire();
            try {
                return endpoint.handle(call);
            } finally {
                permits.release();
            }
        };
    }

    /** {@code work}, run while holding a permit; a 503 when none is free. */
    <T> T run(Supplier<T> work) {
        acquire();
        try {
            return work.get();
        } finally {
            permits.release();
        }
    }

    private void acquire() {
        if (!permits.tryAcquire()) {
            throw new ApiError(
                    503,
                    "the scaler is already running " + limit + " " + what + "; retry in " + RETRY_AFTER_SECONDS
                            + " seconds",
                    null,
                    Map.of("Retry-After", RETRY_AFTER_SECONDS));
        }
    }
}
