package io.kcscale.lab.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A page a benchmark reads off a process of its stack (the scaler's API or metrics, a worker's exporter). */
public final class PageGet {

    private PageGet() {}

    /**
     * The body of a 200 answer to {@code GET uri}; a GET that got no answer at all is asked again on a new connection,
     * up to {@code attempts} in all (a server may close an idle kept-alive connection just as a GET is sent on it).
     *
     * @throws IllegalStateException on any other status, or when no attempt got an answer
     */
    public static String text(HttpClient http, URI uri, Duration timeout, int attempts) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        IOException last = null;
        for (int attempt = 0; attempt < attempts; attempt++) {
            HttpResponse<String> r;
            try {
                r = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException unanswered) {
                last = unanswered;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted: GET " + uri, e);
            }
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + uri + " answered " + r.statusCode());
            }
            return r.body();
        }
        throw new IllegalStateException(
                "GET " + uri + " failed" + (attempts > 1 ? " " + attempts + " times" : "") + ": " + last.getMessage(),
                last);
    }
}
