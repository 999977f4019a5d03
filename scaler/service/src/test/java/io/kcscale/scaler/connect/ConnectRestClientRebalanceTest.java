package io.kcscale.scaler.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
}
