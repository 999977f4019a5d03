package io.kcscale.scaler.connect;

import io.kcscale.scaler.ports.WorkerProbe;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * Probes workers with {@code GET /} on their REST listener, all at once, each within {@code timeout}: any HTTP
 * answer (a 401 too) or a TLS handshake means the worker's process is up; a refused, reset or timed-out connection
 * means it does not answer. No credentials are sent: an answer is all the probe needs, and the addresses come from
 * Connect's status, not from the scaler's settings.
 */
public final class HttpWorkerProbe implements WorkerProbe {

    /** Workers probed in one call at most (the first by id); a group this large is rare, and a round must stay short. */
    static final int MAX_WORKERS = 64;

    private final String scheme;
    private final Duration timeout;
    private final HttpClient http;

    /**
     * @param scheme  {@code http} or {@code https}, as the scaler's Connect URL: a group's workers share one listener kind
     * @param tls     the TLS context for https, or null for the JVM's default
     */
    public HttpWorkerProbe(String scheme, Duration timeout, SSLContext tls) {
        this.scheme = scheme;
        this.timeout = timeout;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.http = builder.build();
    }

    @Override
    public Set<String> unanswered(Collection<String> workerIds) {
        Map<String, CompletableFuture<Boolean>> probes = new TreeMap<>();
        new TreeSet<>(workerIds).stream().limit(MAX_WORKERS).forEach(id -> {
            URI uri = address(id);
            if (uri != null) {
                probes.put(
                        id,
                        http.sendAsync(
                                        HttpRequest.newBuilder(uri)
                                                .timeout(timeout)
                                                .GET()
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .handle((response, failure) -> failure == null || answered(failure)));
            }
        });
        try {
            // the requests' own timeout ends each; this bounds the whole call should one hang past it
            CompletableFuture.allOf(probes.values().toArray(CompletableFuture[]::new))
                    .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the probes not done by now count as unanswered below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Set<String> unanswered = new TreeSet<>();
        probes.forEach((id, probe) -> {
            if (!probe.isDone() || !probe.getNow(true)) {
                probe.cancel(true);
                unanswered.add(id);
            }
        });
        return unanswered;
    }

    /** {@code scheme://host:port/} for a worker id, or null when the id is no such address. */
    URI address(String workerId) {
        if (workerId == null || workerId.isBlank()) {
            return null;
        }
        try {
            URI uri = new URI(scheme + "://" + workerId.strip() + "/");
            return uri.getHost() != null
                            && uri.getPort() > 0
                            && uri.getRawPath().equals("/")
                            && uri.getRawQuery() == null
                            && uri.getRawUserInfo() == null
                    ? uri
                    : null;
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    /**
     * Whether a failed request still heard from the worker: a TLS handshake did (its certificate is not the probe's
     * concern), and a name that does not resolve says nothing of the worker, only of the scaler's view of the network.
     */
    private static boolean answered(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SSLException
                    || t instanceof UnknownHostException
                    || t instanceof UnresolvedAddressException) {
                return true;
            }
        }
        return false;
    }
}
