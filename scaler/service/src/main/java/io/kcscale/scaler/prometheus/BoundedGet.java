package io.kcscale.scaler.prometheus;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code GET} of a metrics endpoint within a timeout, its body cut off past a size: an exporter or a Prometheus
 * server that hangs or answers without end costs a bounded wait and bounded memory. A failure is one line saying
 * what the endpoint did.
 */
final class BoundedGet {

    private final HttpClient http;
    private final Duration timeout;
    private final int maxBytes;

    BoundedGet(Duration timeout, int maxBytes) {
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.timeout = timeout;
        this.maxBytes = maxBytes;
    }

    /** A request started now; {@link #body} waits for it. */
    CompletableFuture<HttpResponse<InputStream>> start(URI uri) {
        return http.sendAsync(
                HttpRequest.newBuilder(uri).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    /** The text of a 200 answer; otherwise a line saying what {@code uri} answered, or that it did not. */
    String body(URI uri, CompletableFuture<HttpResponse<InputStream>> pending) throws MetricsReadException {
        HttpResponse<InputStream> response;
        try {
            // the request's own timeout ends a silent endpoint; this bounds the wait should one hang past it
            response = pending.get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new MetricsReadException(uri + " did not answer within " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new MetricsReadException(uri + " did not answer: "
                    + (cause instanceof HttpTimeoutException
                            ? "no answer within " + timeout.toSeconds() + " s"
                            : cause.getClass().getSimpleName()
                                    + (cause.getMessage() == null ? "" : " " + cause.getMessage())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetricsReadException("interrupted while reading " + uri);
        }
        try (InputStream in = response.body()) {
            byte[] bytes = in.readNBytes(maxBytes + 1);
            if (response.statusCode() != 200) {
                throw new MetricsReadException(uri + " answered HTTP " + response.statusCode());
            }
            if (bytes.length > maxBytes) {
                throw new MetricsReadException(uri + " answered more than " + maxBytes / 1024
                        + " KiB, more than a worker's metrics;" + " is it the right endpoint?");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MetricsReadException(uri + " broke off its answer: " + e.getMessage());
        }
    }

    /** One line saying why an endpoint gave no reading. */
    static final class MetricsReadException extends Exception {
        private static final long serialVersionUID = 1L;

        MetricsReadException(String message) {
            super(message, null, false, false);
        }
    }
}
