package io.kcscale.scaler.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.ports.ConnectApi;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConnectRestClientRebalanceTest {

    @Test
    void aFiveHundredSayingARebalanceIsExpectedIsRetriedLikeAConflict() throws IOException {
        // what a worker answers right after a connector's config changed: the herder must rebalance first
        AtomicInteger calls = new AtomicInteger();
        HttpServer connect = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        connect.createContext("/connectors/c/config", exchange -> {
            boolean rebalancing = calls.incrementAndGet() == 1;
            byte[] body = (rebalancing
                            ? "{\"error_code\":500,\"message\":\"Request cannot be completed because a rebalance is expected\"}"
                            : "{\"tasks.max\":\"2\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(rebalancing ? 500 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        connect.start();
        try {
            ConnectRestClient client = new ConnectRestClient(
                    URI.create("http://127.0.0.1:" + connect.getAddress().getPort()),
                    Duration.ofSeconds(5),
                    new Backoff(3, Duration.ofMillis(10), Duration.ofMillis(10)));
            assertEquals("2", client.connectorConfig("c").get("tasks.max"));
            assertEquals(2, calls.get());
        } finally {
            connect.stop(0);
        }
    }

    @Test
    void aFencedClientAsksBeforeEveryAttemptOfAWriteAndSendsNoneItStops() throws IOException {
        // Connect rebalancing: every request answered 409, so the client retries
        List<String> received = new ArrayList<>();
        HttpServer connect = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        connect.createContext("/connectors/c/config", exchange -> {
            received.add(exchange.getRequestMethod());
            byte[] body = "{\"error_code\":409,\"message\":\"rebalancing\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(409, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        connect.start();
        try {
            ConnectRestClient client = new ConnectRestClient(
                    URI.create("http://127.0.0.1:" + connect.getAddress().getPort()),
                    Duration.ofSeconds(5),
                    new Backoff(5, Duration.ofMillis(10), Duration.ofMillis(10)));
            List<String> asked = new ArrayList<>();
            WriteFence twice = (what, timeout) -> {
                asked.add(what + " within " + timeout.toSeconds() + " s");
                if (asked.size() > 2) {
                    throw new WriteFence.Lapsed(what + " not sent");
                }
            };
            ConnectApi fenced = client.fenced(twice);
            assertThrows(ConnectRestException.RebalanceInProgress.class, () -> fenced.connectorConfig("c"));
            assertEquals(List.of(), asked, "reads are not fenced");
            received.clear();

            assertThrows(WriteFence.Lapsed.class, () -> fenced.patchConnectorConfig("c", Map.of("tasks.max", "2")));
            assertEquals(
                    List.of(
                            "PATCH /connectors/c/config within 10 s",
                            "PATCH /connectors/c/config within 10 s",
                            "PATCH /connectors/c/config within 10 s"),
                    asked,
                    "asked before each attempt, for the connection's and the request's timeout");
            assertEquals(List.of("PATCH", "PATCH"), received, "the attempt it stopped was not sent");
        } finally {
            connect.stop(0);
        }
    }
}
