package io.kcscale.scaler.poll;

/** A condition did not hold before its deadline; the message says what was awaited and what was seen. */
public class PollTimeoutException extends RuntimeException {
    public PollTimeoutException(String message) {
        super(message);
    }
}
