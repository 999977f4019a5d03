package io.kcscale.scaler.api;

/** A request the API refuses, with the HTTP status and (when one input is at fault) its field. */
public final class ApiError extends RuntimeException {

    private final int status;
    private final String field;
    private final java.util.Map<String, String> headers;

    public ApiError(int status, String message, String field) {
        this(status, message, field, java.util.Map.of());
    }

    /** With response headers, such as {@code WWW-Authenticate} on a 401 or {@code Retry-After} on a 503. */
    public ApiError(int status, String message, String field, java.util.Map<String, String> headers) {
        super(message);
        this.status = status;
        this.field = field;
        this.headers = headers;
    }

    public java.util.Map<String, String> headers() {
        return headers;
    }

    public int status() {
        return status;
    }

    public String field() {
        return field;
    }
}
