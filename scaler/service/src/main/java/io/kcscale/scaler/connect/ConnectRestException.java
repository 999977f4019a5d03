package io.kcscale.scaler.connect;

/** Connect's REST API answered with an error; subclasses name the cases callers act on. */
public class ConnectRestException extends RuntimeException {
    private final int status;

    public ConnectRestException(int status, String message) {
        super(message);
        this.status = status;
    }

    public ConnectRestException(String message, Throwable cause) {
        super(message, cause);
        this.status = -1;
    }

    /** The HTTP status, or -1 when no answer came. */
    public int status() {
        return status;
    }

    /** 404: the named connector does not exist. */
    public static final class ConnectorNotFound extends ConnectRestException {
        public ConnectorNotFound(String message) {
            super(404, message);
        }
    }

    /** 409: the worker group is rebalancing; the same request may succeed later. */
    public static final class RebalanceInProgress extends ConnectRestException {
        public RebalanceInProgress(String message) {
            super(409, message);
        }
    }

    /** 400: Connect rejected a connector configuration; the message carries its validation errors. */
    public static final class ConfigRejected extends ConnectRestException {
        public ConfigRejected(int status, String message) {
            super(status, message);
        }
    }

    /**
     * 400 from the worker's web server before Connect saw the request: it refuses some encoded names in a path
     * (Connect 4.x's Jetty answers "Ambiguous URI path separator" for {@code %2F} and "... encoding" for
     * {@code %25}), so a connector whose name holds {@code /} or {@code %} cannot be read or changed by name.
     */
    public static final class PathRejected extends ConnectRestException {
        public PathRejected(String message) {
            super(400, message);
        }
    }

    /** No answer at all: the worker is down or unreachable. */
    public static final class Unreachable extends ConnectRestException {
        public Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
