package io.kcscale.scaler.api;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * One request as a route sees it: the parameters its path bound, its query, headers and body. A value of its own
 * per request: the JDK server kept attributes in a context every exchange shared, so two requests at once once
 * read each other's {@code {name}}.
 */
public final class Call {

    private final Request request;
    private final Map<String, String> pathParameters;

    Call(Request request, Map<String, String> pathParameters) {
        this.request = request;
        this.pathParameters = Map.copyOf(pathParameters);
    }

    /** The value of {@code {name}} in the path template the request matched, decoded once. */
    public String pathParameter(String name) {
        String value = pathParameters.get(name);
        if (value == null) {
            throw new IllegalStateException("the route has no path parameter {" + name + "}");
        }
        return value;
    }

    /** The query string as sent (still percent-encoded), or null. */
    public String rawQuery() {
        return request.getHttpURI().getQuery();
    }

    /** The first value of the request header {@code name}. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(request.getHeaders().get(name));
    }

    /**
     * The body's first {@link JsonBody#MAX_BYTES} + 1 bytes, one more than JsonBody takes. They must arrive within
     * {@link ApiServer#REQUEST_SECONDS} of the request's first byte, or the connection is closed: Jetty's idle
     * timeout cuts off a client that stops sending, but not one that trickles a byte now and then.
     */
    public InputStream body() throws IOException {
        EndPoint connection = request.getConnectionMetaData().getConnection().getEndPoint();
        long left =
                request.getBeginNanoTime() + TimeUnit.SECONDS.toNanos(ApiServer.REQUEST_SECONDS) - System.nanoTime();
        Scheduler.Task cutOff = request.getComponents()
                .getScheduler()
                .schedule(
                        () -> connection.close(new TimeoutException(
                                "the request did not arrive whole within " + ApiServer.REQUEST_SECONDS + " seconds")),
                        Math.max(0, left),
                        TimeUnit.NANOSECONDS);
        try {
            return new ByteArrayInputStream(Request.asInputStream(request).readNBytes(JsonBody.MAX_BYTES + 1));
        } finally {
            cutOff.cancel();
        }
    }
}
