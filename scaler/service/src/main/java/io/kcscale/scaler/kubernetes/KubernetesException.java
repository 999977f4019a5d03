package io.kcscale.scaler.kubernetes;

/** A Kubernetes API call that did not succeed; the subclasses are the cases a caller treats apart. */
public class KubernetesException extends RuntimeException {

    KubernetesException(String message, Throwable cause) {
        super(message, cause);
    }

    /** 401 or 403: the scaler's credentials, or its Role, do not allow the call. */
    public static final class AccessDenied extends KubernetesException {
        AccessDenied(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** 409: the resource changed since it was read (its resourceVersion moved on). */
    public static final class Conflict extends KubernetesException {
        Conflict(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** 404 on a write: the resource was deleted since it was read. */
    public static final class Gone extends KubernetesException {
        Gone(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Anything else: the API server did not answer in time, or answered an error. */
    public static final class Unavailable extends KubernetesException {
        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
