package io.kcscale.scaler.scale;

/** A scale request that was not carried out (or not to the end); {@link Kind} says why (the API answers each with its own HTTP status). */
public final class ScaleException extends RuntimeException {

    /** Why. */
    public enum Kind {
        MALFORMED,
        UNKNOWN_CONNECTOR,
        /** The connector was deleted while the scale ran; it is not re-created. */
        GONE,
        IN_PROGRESS,
        /** Someone else changed the connector (or owns its task count) while the scale ran; nothing of theirs was undone. */
        CONFLICT,
        REFUSED,
        UNAVAILABLE,
        NOT_CONVERGED,
        /** The write got no answer in time: it may still apply; the message says what Connect holds now. */
        UNCONFIRMED,
        /** The writer's fence stopped a write: the autoscaler's leader no longer held its lease long enough. */
        ABANDONED
    }

    private final Kind kind;
    private final String field;

    public ScaleException(Kind kind, String message) {
        this(kind, message, null);
    }

    public ScaleException(Kind kind, String message, String field) {
        super(message);
        this.kind = kind;
        this.field = field;
    }

    public Kind kind() {
        return kind;
    }

    /** The request field at fault, or null. */
    public String field() {
        return field;
    }
}
