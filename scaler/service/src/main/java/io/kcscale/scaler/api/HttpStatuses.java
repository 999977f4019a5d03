package io.kcscale.scaler.api;

import io.kcscale.scaler.scale.ScaleException;
import io.kcscale.scaler.service.NotObservedException;
import java.util.Map;

/** The HTTP status the API answers each reason a service call gives for not doing what was asked. */
public final class HttpStatuses {

    private HttpStatuses() {}

    public static int of(ScaleException.Kind kind) {
        return switch (kind) {
            case MALFORMED -> 400;
            case UNKNOWN_CONNECTOR, GONE -> 404;
            case IN_PROGRESS, CONFLICT -> 409;
            case REFUSED -> 422;
            case UNAVAILABLE, ABANDONED -> 503;
            case NOT_CONVERGED, UNCONFIRMED -> 504;
        };
    }

    /** The answer to a refused scale: its status, its message, the request field at fault. */
    static ApiError of(ScaleException e) {
        return new ApiError(of(e.kind()), e.getMessage(), e.field());
    }

    /** The answer for a connector with no snapshot to give; a 503 says when to retry. */
    static ApiError of(NotObservedException e) {
        return switch (e.reason()) {
            case UNKNOWN_CONNECTOR -> new ApiError(404, e.getMessage(), null);
            case NOT_A_SINK, UNADDRESSABLE -> new ApiError(422, e.getMessage(), null);
            case CONNECT_UNAVAILABLE -> new ApiError(503, e.getMessage(), null, Map.of("Retry-After", "5"));
            case NOT_OBSERVED_YET -> new ApiError(503, e.getMessage(), null, Map.of("Retry-After", "2"));
        };
    }
}
