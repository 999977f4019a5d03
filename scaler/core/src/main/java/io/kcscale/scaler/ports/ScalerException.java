package io.kcscale.scaler.ports;

/**
 * What the scaler could not do, from a port's write to the facade's answer: one type with one {@link Problem}, so
 * a writer's reason reaches the API unchanged and the API maps each problem to its HTTP status in one place.
 */
public final class ScalerException extends RuntimeException {

    public enum Problem {
        /** A request the scaler cannot act on as given; {@link #field()} names the input at fault. */
        MALFORMED,
        /** No connector has that name. */
        UNKNOWN_CONNECTOR,
        /** The connector exists and is not a sink: the scaler observes sink connectors only. */
        NOT_A_SINK,
        /** Connect's web server refuses the name in a path, so nothing can address it. */
        UNADDRESSABLE,
        /** A sink created since the last sampling round, still not sampled. */
        NOT_OBSERVED_YET,
        /** The connector is unknown to the scaler and Connect does not answer. */
        CONNECT_UNAVAILABLE,
        /** The connector was deleted while the scale ran; it is not re-created. */
        GONE,
        /** Another scale of the same connector is running. */
        IN_PROGRESS,
        /** Someone else changed the connector (or owns its task count); nothing of theirs was undone. */
        CONFLICT,
        /** The scale is refused: a rule, a blocking check, or the writer's permissions. */
        REFUSED,
        /** The system could not be read or refused the write. */
        UNAVAILABLE,
        /** The tasks did not all run within the wait. */
        NOT_CONVERGED,
        /** The write got no answer in time: it may still apply; the message says what the system holds now. */
        UNCONFIRMED,
        /** The writer's fence stopped a write: the autoscaler's leader no longer held its lease long enough. */
        ABANDONED
    }

    private final Problem problem;
    private final String field;

    public ScalerException(Problem problem, String message) {
        this(problem, message, null);
    }

    public ScalerException(Problem problem, String message, String field) {
        super(message);
        this.problem = problem;
        this.field = field;
    }

    public Problem problem() {
        return problem;
    }

    /** The request field at fault, or null. */
    public String field() {
        return field;
    }
}
