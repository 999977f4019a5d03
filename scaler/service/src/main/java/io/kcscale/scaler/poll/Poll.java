package io.kcscale.scaler.poll;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Waits for a condition by polling it until a deadline: the one way this project waits for a
 * state, in code and in tests alike (never a fixed sleep).
 */
public final class Poll {

    private Poll() {}

    /**
     * Polls {@code probe} every {@code interval} until it yields a value or {@code timeout} passes.
     * A probe that throws counts as "not yet" (its last failure is named in the timeout message),
     * except {@link Abort}, which ends the wait at once.
     *
     * @param what what is awaited, in words, for the failure message
     * @return the first value the probe yielded
     * @throws PollTimeoutException when the deadline passes first
     */
    public static <T> T until(String what, Duration timeout, Duration interval, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastObservation = "nothing observed yet";
        while (true) {
            try {
                Optional<T> value = probe.get();
                if (value.isPresent()) {
                    return value.get();
                }
            } catch (Abort e) {
                throw new PollTimeoutException("gave up waiting for " + what + ": " + e.getMessage());
            } catch (RuntimeException e) {
                lastObservation = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new PollTimeoutException("timed out after " + timeout.toMillis() + " ms waiting for " + what
                        + " (last: " + lastObservation + ")");
            }
            sleepUpTo(Math.min(interval.toNanos(), remaining));
        }
    }

    /** As {@link #until}, for a condition that is true or false; {@code describe} tells what was seen last. */
    public static void untilTrue(
            String what, Duration timeout, Duration interval, Supplier<Boolean> condition, Supplier<String> describe) {
        until(what, timeout, interval, () -> {
            if (condition.get()) {
                return Optional.of(Boolean.TRUE);
            }
            throw new IllegalStateException(describe.get());
        });
    }

    /** Thrown by a probe when the awaited state can no longer come (say, the process died): stops at once. */
    public static final class Abort extends RuntimeException {
        public Abort(String reason) {
            super(reason);
        }
    }

    private static void sleepUpTo(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PollTimeoutException("interrupted while polling");
        }
    }
}
