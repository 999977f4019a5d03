package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The checks route of a scaler that observes no pipeline: documented, and a 503 that says how to connect one. */
class CheckRoutesTest {

    @Test
    void withoutAPipelineTheChecksAnswer503() throws Exception {
        try (ApiServer server = ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            assertTrue(server.routes().get(CheckRoutes.PATH).contains("GET"));
            URI uri = URI.create(
                    "http://127.0.0.1:" + server.address().getPort() + "/api/v1/connectors/s/checks?sampleRecords=5");
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, response.statusCode());
            assertTrue(response.body().contains("not connected to a pipeline"), response.body());
        }
    }
}
