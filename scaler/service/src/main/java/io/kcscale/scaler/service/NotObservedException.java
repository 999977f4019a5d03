package io.kcscale.scaler.service;

/** A connector the scaler has no snapshot of, and cannot give one now; {@link Reason} says why. */
public final class NotObservedException extends RuntimeException {

    public enum Reason {
        /** No connector has that name. */
        UNKNOWN_CONNECTOR,
        /** The connector exists and is not a sink: the scaler observes sink connectors only. */
        NOT_A_SINK,
        /** Connect's web server refuses the name in a path, so nothing can address it. */
        UNADDRESSABLE,
        /** The connector is unknown to the scaler and Connect does not answer. */
        CONNECT_UNAVAILABLE,
        /** A sink created since the last sampling round, still not sampled. */
        NOT_OBSERVED_YET
    }

    private final Reason reason;

    public NotObservedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
