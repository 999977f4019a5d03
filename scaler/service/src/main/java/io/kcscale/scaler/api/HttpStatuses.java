package io.kcscale.scaler.api;

import io.kcscale.scaler.ports.ScalerException;
import java.util.Map;

/** The HTTP status the API answers each problem a service call gives for not doing what was asked. */
public final class HttpStatuses {

    private HttpStatuses() {}

    public static int of(ScalerException.Problem problem) {
        return switch (problem) {
            case MALFORMED -> 400;
            case UNKNOWN_CONNECTOR, GONE -> 404;
            case IN_PROGRESS, CONFLICT -> 409;
            case NOT_A_SINK, UNADDRESSABLE, REFUSED -> 422;
            case UNAVAILABLE, ABANDONED, CONNECT_UNAVAILABLE, NOT_OBSERVED_YET -> 503;
            case NOT_CONVERGED, UNCONFIRMED -> 504;
        };
    }

    /** The answer: its status, its message, the request field at fault; a 503 of a reading says when to retry. */
    static ApiError of(ScalerException e) {
        Map<String, String> headers = switch (e.problem()) {
            case CONNECT_UNAVAILABLE -> Map.of("Retry-After", "5");
            case NOT_OBSERVED_YET -> Map.of("Retry-After", "2");
            default -> Map.of();
        };
        return new ApiError(of(e.problem()), e.getMessage(), e.field(), headers);
    }
}
