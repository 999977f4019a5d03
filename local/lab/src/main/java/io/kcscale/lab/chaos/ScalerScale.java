package io.kcscale.lab.chaos;

import io.kcscale.scaler.common.ConnectorPath;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * {@code POST /api/v1/connectors/{name}/scale} on the stack's scaler service, forced: the scale is a fault the schedule
 * injects, so the scaler's judgement (a worker just restarted and busy, one not yet answering) must not veto it.
 */
final class ScalerScale {

    /** The scaler waits until the tasks run, which a loaded machine makes slow. */
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final URI scaler;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ScalerScale(URI scaler) {
        this.scaler = scaler;
    }

    /** @return the scaler's answer, as it gave it; @throws IllegalStateException on any answer but 200 */
    String scale(String connector, int tasks) {
        URI url = scaler.resolve("/api/v1/connectors/" + ConnectorPath.segment(connector) + "/scale");
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"tasks\":" + tasks + ",\"force\":true}"))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the scaler answered " + response.statusCode() + " to a scale to "
                        + tasks + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "the scaler at " + scaler + " did not answer a scale to " + tasks + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted scaling", e);
        }
    }
}
