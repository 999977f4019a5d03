package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How often, and after how long, a document Elasticsearch refused for now is sent again: the pause
 * doubles from {@code initial} up to {@code max}, and each is drawn between half and all of that, so
 * the tasks an overload hit at once do not come back at once.
 *
 * @param maxAttempts sends of one document before the task gives up, the first one included
 * @param random      uniform in [0, 1): the jitter
 */
record RetrySchedule(int maxAttempts, Duration initial, Duration max, DoubleSupplier random) {

    RetrySchedule(int maxAttempts, Duration initial, Duration max) {
        this(maxAttempts, initial, max, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** Whether a document that failed {@code failures} times may be sent again. */
    boolean allowsAnother(int failures) {
        return failures < maxAttempts;
    }

    /** The pause before sending again a document that has failed {@code failures} times (1 or more). */
    Duration delayAfter(int failures) {
        // doubling past 2^30 cannot stay below any max a setting allows
        long capped = Math.min(initial.toMillis() << Math.min(Math.max(failures - 1, 0), 30), max.toMillis());
        return Duration.ofMillis(capped / 2 + (long) (random.getAsDouble() * (capped - capped / 2)));
    }
}
