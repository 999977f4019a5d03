package io.kcscale.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kcscale.scaler.poll.Poll;

/** Calls the scaler's REST API as a user would, keeping status and body. */
final class ScalerHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Answer(int status, JsonNode body, String raw) {
    }

    private final URI base;
    private final HttpClient http = HttpClient.newHttpClient();

    ScalerHttp(URI base) {
        this.base = base;
    }

    /** Another client of the same scaler, with connections of its own. */
    ScalerHttp another() {
        return new ScalerHttp(base);
    }

    Answer get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET());
    }

    /** Polls {@code GET path} until it answers 200 with a body {@code wanted} accepts; the last answer is in the timeout's message. */
    JsonNode awaitGet(String path, Predicate<JsonNode> wanted, Duration timeout) {
        return Poll.until("GET " + path + " as wanted", timeout, Duration.ofSeconds(1), () -> {
            Answer a = get(path);
            if (a.status() == 200 && wanted.test(a.body())) {
                return Optional.of(a.body());
            }
            throw new IllegalStateException(a.status() + " " + a.raw());
        });
    }

    Answer post(String path, String json) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** A POST with the scaler's bearer token, as a token holder sends it. */
    Answer post(String path, String json, String token) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer put(String path, String json) {
        return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer delete(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).DELETE());
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = http.send(request.timeout(Duration.ofMinutes(3)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body().startsWith("{") || r.body().startsWith("[") ? JSON.readTree(r.body()) : null;
            return new Answer(r.statusCode(), body, r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
