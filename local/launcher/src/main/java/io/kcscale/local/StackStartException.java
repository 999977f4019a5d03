package io.kcscale.local;

/** The stack could not start; the message names the component and ends with its last log lines. */
public class StackStartException extends RuntimeException {
    public StackStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
