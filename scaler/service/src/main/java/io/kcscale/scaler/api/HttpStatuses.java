package io.kcscale.scaler.api;

import io.kcscale.scaler.act.ScaleException;

/** The HTTP status the API answers each reason a service call gives for not doing what was asked. */
public final class HttpStatuses {

    private HttpStatuses() {
    }

    public static int of(ScaleException.Kind kind) {
        return switch (kind) {
            case MALFORMED -> 400;
            case UNKNOWN_CONNECTOR, GONE -> 404;
            case IN_PROGRESS, CONFLICT -> 409;
            case REFUSED -> 422;
            case UNAVAILABLE -> 503;
            case NOT_CONVERGED, UNCONFIRMED -> 504;
        };
    }
}
