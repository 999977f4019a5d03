package io.kcscale.scaler.ports;

/** A {@link TasksMaxWriter#write} that did not take, or may not have; {@link Reason} says which case. */
public final class TasksMaxWriteException extends RuntimeException {

    public enum Reason {
        /** The connector was deleted; it is not re-created. */
        GONE,
        /** Someone else changed the connector (or owns its task count); nothing of theirs was undone. */
        CONFLICT,
        /** The writer may not write it (permissions). */
        REFUSED,
        /** The system could not be read or refused the write. */
        UNAVAILABLE,
        /** The write got no answer in time: it may still apply; the message says what the system holds now. */
        UNCONFIRMED
    }

    private final Reason reason;

    public TasksMaxWriteException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
