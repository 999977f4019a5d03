package io.kcscale.scaler.api;

/** A request the API refuses, with the HTTP status and (when one input is at fault) its field. */
public final class ApiError extends RuntimeException {

    private final int status;
    private final String field;

    public ApiError(int status, String message, String field) {
        super(message);
        this.status = status;
        this.field = field;
    }

    public int status() {
        return status;
    }

    public String field() {
        return field;
    }
}
