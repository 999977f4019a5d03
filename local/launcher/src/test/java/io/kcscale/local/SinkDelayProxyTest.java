package io.kcscale.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SinkDelayProxyTest {

    private HttpServer target;

    @BeforeEach
    void startTarget() throws IOException {
        // stands in for Elasticsearch, whose server sends without Nagle's delay too; answers with what it got, 201
        System.setProperty("sun.net.httpserver.nodelay", "true");
        target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        target.createContext("/", exchange -> {
            byte[] body = (exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                            + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain");
            exchange.sendResponseHeaders(201, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        target.start();
    }

    @AfterEach
    void stopTarget() {
        target.stop(0);
    }

    @Test
    void forwardsRequestsAsTheyAreAfterTheDelayAndNoMore() throws Exception {
        URI targetUri = URI.create("http://127.0.0.1:" + target.getAddress().getPort());
        try (SinkDelayProxy proxy = SinkDelayProxy.start(targetUri, Duration.ofMillis(20), Duration.ZERO, 0)) {
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI through = URI.create("http://" + proxy.hostPort() + "/stocks/_doc?refresh=false");
            HttpRequest put = HttpRequest.newBuilder(through)
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"price\":1}"))
                    .build();
            HttpResponse<String> first = client.send(put, HttpResponse.BodyHandlers.ofString());
            assertEquals(201, first.statusCode());
            assertEquals("PUT /stocks/_doc?refresh=false {\"price\":1}", first.body());
            assertEquals(
                    "text/plain", first.headers().firstValue("Content-Type").orElseThrow());

            double[] millis = new double[21];
            for (int i = 0; i < millis.length; i++) {
                long start = System.nanoTime();
                client.send(put, HttpResponse.BodyHandlers.ofString());
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(millis);
            // a per-record sink's round trip: the delay, not Nagle's 40 ms stalls on top of it (the median, so that a
            // few requests slowed by a loaded machine do not decide)
            double median = millis[millis.length / 2];
            assertTrue(millis[0] >= 20, millis[0] + " ms: quicker than the delay");
            assertTrue(median < 45, median + " ms median per request: " + Arrays.toString(millis));
        }
    }

    @Test
    void theSerialTimeQueuesConcurrentRequestsOneAtATime() throws Exception {
        URI targetUri = URI.create("http://127.0.0.1:" + target.getAddress().getPort());
        try (SinkDelayProxy proxy = SinkDelayProxy.start(targetUri, Duration.ofMillis(5), Duration.ofMillis(20), 0)) {
            URI through = URI.create("http://" + proxy.hostPort() + "/stocks/_doc");
            int clients = 4;
            int each = 5;
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
            try {
                long start = System.nanoTime();
                java.util.List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    done.add(pool.submit(() -> {
                        HttpClient client = HttpClient.newBuilder()
                                .version(HttpClient.Version.HTTP_1_1)
                                .build();
                        for (int i = 0; i < each; i++) {
                            client.send(
                                    HttpRequest.newBuilder(through)
                                            .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
                        }
                        return each;
                    }));
                }
                for (java.util.concurrent.Future<Integer> f : done) {
                    f.get(30, java.util.concurrent.TimeUnit.SECONDS);
                }
                double millis = (System.nanoTime() - start) / 1e6;
                // 20 requests through one 20 ms lock take at least 400 ms, however many clients send them;
                // without the lock four clients would take about 5 x 25 ms
                assertTrue(millis >= clients * each * 20, millis + " ms for " + clients * each + " requests");
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
