package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.ConnectorPath;
import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** The CLI's client of the scaler's own REST API; a non-2xx answer becomes a {@link Failure} with the API's message. */
final class ScalerApiClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final URI base;
    private final Optional<String> token;

    ScalerApiClient(URI base, Optional<String> token) {
        this.base = URI.create(base.toString().replaceAll("/+$", ""));
        this.token = token;
    }

    /**
     * The API path of a connector's resource: {@code suffix} is {@code ""} for the connector itself, else
     * {@code "/scale"} and the like.
     */
    static String connectorPath(String name, String suffix) {
        return "/api/v1/connectors/" + ConnectorPath.segment(name) + suffix;
    }

    /** An answer other than 2xx, or none. */
    static final class Failure extends RuntimeException {
        final int status;

        Failure(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    JsonNode get(String path) {
        return get(path, Duration.ofSeconds(30));
    }

    /** @param timeout a check samples the topic for up to its time budget before it answers */
    JsonNode get(String path, Duration timeout) {
        return send("GET", path, null, timeout);
    }

    /** @param timeout a scale waits for tasks to converge, so it may take minutes */
    JsonNode post(String path, Object body, Duration timeout) {
        return send("POST", path, Json.write(body), timeout);
    }

    JsonNode put(String path, Object body) {
        return send("PUT", path, Json.write(body), Duration.ofSeconds(30));
    }

    JsonNode delete(String path) {
        return send("DELETE", path, null, Duration.ofSeconds(30));
    }

    /**
     * One exchange over {@link HttpURLConnection}, not the JDK's HttpClient: a CLI call makes one request, and
     * building an HttpClient (its selector thread, TLS set up even for http://) took ~160 ms of a ~40 ms JVM start.
     * The scaler answers once its work is done, so the read timeout bounds the whole wait.
     */
    private JsonNode send(String method, String path, String json, Duration timeout) {
        int status;
        byte[] answer;
        try {
            HttpURLConnection connection =
                    (HttpURLConnection) base.resolve(path).toURL().openConnection(Proxy.NO_PROXY);
            try {
                connection.setRequestMethod(method);
                connection.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
                connection.setReadTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
                connection.setUseCaches(false);
                connection.setRequestProperty("Accept", "application/json");
                token.ifPresent(t -> connection.setRequestProperty("Authorization", "Bearer " + t));
                if (json != null) {
                    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
                    connection.setRequestProperty("Content-Type", "application/json");
                    connection.setDoOutput(true);
                    // streamed with its length: never buffered and silently re-sent, so a scale is posted once
                    connection.setFixedLengthStreamingMode(bytes.length);
                    try (OutputStream out = connection.getOutputStream()) {
                        out.write(bytes);
                    }
                }
                status = connection.getResponseCode();
                try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
                    answer = in == null ? new byte[0] : in.readAllBytes();
                }
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            throw new Failure(
                    -1,
                    "the scaler at " + base + " does not answer ("
                            + e.getClass().getSimpleName()
                            + "): is it running? (`./kcscale up` starts it; --scaler-url points elsewhere)");
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(answer);
        } catch (IOException e) {
            body = null;
        }
        if (body == null || body.isMissingNode()) {
            throw new Failure(status, "the scaler answered " + status + " with a body that is not JSON");
        }
        if (status / 100 != 2) {
            throw new Failure(status, body.path("error").asText("HTTP " + status));
        }
        return body;
    }
}
