package io.kcscale.scaler.api;

import java.time.Duration;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's admission control, answering in the API's JSON: at most {@code requests} requests are handled at once
 * (one whose client is still sending its body holds its place), and {@code waiting} more wait for a place for at
 * most {@link #MAX_WAIT}. The rest, and those still waiting then, get 503 with Retry-After, so status, metrics
 * and the page answer quickly or say to retry rather than hang behind slow clients.
 */
final class Admission extends QoSHandler {

    static final String RETRY_AFTER_SECONDS = "1";
    static final Duration MAX_WAIT = Duration.ofSeconds(1);

    Admission(int requests, int waiting, Handler api) {
        super(api);
        setMaxRequestCount(requests);
        setMaxSuspendedRequestCount(waiting);
        setMaxSuspend(MAX_WAIT);
    }

    @Override
    protected void reject(Request request, Response response, Callback callback, int status) {
        busy(response, callback);
    }

    @Override
    protected void failSuspended(Request request, Response response, Callback callback, int status, Throwable failure) {
        busy(response, callback);
    }

    private static void busy(Response response, Callback callback) {
        Responses.send(
                response,
                callback,
                new ApiError(
                        503,
                        "the scaler is answering as many requests as it can; retry in " + RETRY_AFTER_SECONDS
                                + " second",
                        null,
                        Map.of("Retry-After", RETRY_AFTER_SECONDS)));
    }
}
