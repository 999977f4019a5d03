package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The CLI's client against a real HTTP server on a loopback port: what it sends, and each answer that is not a success. */
class ScalerApiClientTest {

    private HttpServer server;
    private final List<String> received = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/ok", e -> {
            // the body as JSON: the CLI's writer may indent it
            received.add(e.getRequestMethod() + " " + e.getRequestHeaders().getFirst("Content-Type") + " "
                    + e.getRequestHeaders().getFirst("Authorization") + " " + Json.MAPPER.readTree(e.getRequestBody()));
            answer(e, 200, "{\"tasks\":3}");
        });
        server.createContext("/refused", e -> answer(e, 422, "{\"error\":\"adding tasks would not help\"}"));
        server.createContext("/html", e -> answer(e, 502, "<html>bad gateway</html>"));
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aPostSendsItsJsonBodyAndTokenOnceAndReadsTheAnswer() {
        ScalerApiClient client = new ScalerApiClient(url(), Optional.of("s3cret"));
        assertEquals(
                3,
                client.post("/ok", Map.of("tasks", 3), Duration.ofSeconds(5))
                        .path("tasks")
                        .asInt());
        assertEquals(List.of("POST application/json Bearer s3cret {\"tasks\":3}"), received);
        assertEquals(3, client.get("/ok").path("tasks").asInt());
    }

    @Test
    void aRefusalCarriesTheApisOwnMessageAndStatus() {
        ScalerApiClient.Failure f = assertThrows(
                ScalerApiClient.Failure.class,
                () -> new ScalerApiClient(url(), Optional.empty()).post("/refused", Map.of(), Duration.ofSeconds(5)));
        assertEquals(422, f.status);
        assertEquals("adding tasks would not help", f.getMessage());
    }

    @Test
    void anAnswerThatIsNotJsonSaysSo() {
        ScalerApiClient.Failure f = assertThrows(
                ScalerApiClient.Failure.class, () -> new ScalerApiClient(url(), Optional.empty()).get("/html"));
        assertEquals(502, f.status);
        assertEquals("the scaler answered 502 with a body that is not JSON", f.getMessage());
    }

    @Test
    void noScalerOnThePortSaysHowToStartOne() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        ScalerApiClient.Failure f = assertThrows(
                ScalerApiClient.Failure.class,
                () -> new ScalerApiClient(URI.create("http://127.0.0.1:" + closed), Optional.empty()).get("/ok"));
        assertEquals(-1, f.status);
        assertTrue(
                f.getMessage()
                        .startsWith("the scaler at http://127.0.0.1:" + closed + " does not answer (ConnectException)"),
                f.getMessage());
    }

    private URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    private static void answer(HttpExchange e, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        e.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = e.getResponseBody()) {
            out.write(bytes);
        }
    }
}
