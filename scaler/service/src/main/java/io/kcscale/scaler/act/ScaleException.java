package io.kcscale.scaler.act;

/** A scale request that was not carried out (or not to the end); {@link Kind} says why, and so the HTTP status. */
public final class ScaleException extends RuntimeException {

    /** Why, with the HTTP status the API answers. */
    public enum Kind {
        MALFORMED(400), UNKNOWN_CONNECTOR(404),
        /** The connector was deleted while the scale ran; it is not re-created. */
        GONE(404),
        IN_PROGRESS(409),
        /** Someone else changed the connector (or owns its task count) while the scale ran; nothing of theirs was undone. */
        CONFLICT(409),
        REFUSED(422), UNAVAILABLE(503), NOT_CONVERGED(504),
        /** The write got no answer in time: it may still apply; the message says what Connect holds now. */
        UNCONFIRMED(504);

        public final int status;

        Kind(int status) {
            this.status = status;
        }
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
