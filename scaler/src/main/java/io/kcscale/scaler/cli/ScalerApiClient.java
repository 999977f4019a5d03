package io.kcscale.scaler.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.kcscale.scaler.api.Json;
import io.kcscale.scaler.connect.ConnectorPath;

/** The CLI's client of the scaler's own REST API; a non-2xx answer becomes a {@link Failure} with the API's message. */
final class ScalerApiClient {

    private final URI base;
    private final Optional<String> token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

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
        return send(HttpRequest.newBuilder(base.resolve(path)).GET(), timeout);
    }

    /** @param timeout a scale waits for tasks to converge, so it may take minutes */
    JsonNode post(String path, Object body, Duration timeout) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))), timeout);
    }

    JsonNode put(String path, Object body) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Json.write(body))), Duration.ofSeconds(30));
    }

    JsonNode delete(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).DELETE(), Duration.ofSeconds(30));
    }

    private JsonNode send(HttpRequest.Builder request, Duration timeout) {
        token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        HttpResponse<String> response;
        try {
            response = http.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Failure(-1, "the scaler at " + base + " does not answer (" + e.getClass().getSimpleName()
                    + "): is it running? (`./kcscale up` starts it; --scaler-url points elsewhere)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failure(-1, "interrupted");
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new Failure(response.statusCode(), "the scaler answered " + response.statusCode() + " with a body that is not JSON");
        }
        if (response.statusCode() / 100 != 2) {
            throw new Failure(response.statusCode(), body.path("error").asText("HTTP " + response.statusCode()));
        }
        return body;
    }
}
