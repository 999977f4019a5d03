package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Anyone may send any connector name: no metric may keep a series per name. */
class ScaleOutcomeMetricTest {

    private static final int UNKNOWN_NAMES = 10_000;

    @Test
    void tenThousandUnknownConnectorNamesAddNoSeries(@TempDir Path stateDir) throws IOException, InterruptedException {
        HttpServer connect = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        connect.createContext("/", exchange -> {
            byte[] body = "{\"error_code\":404,\"message\":\"Connector not found\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(404, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        connect.start();
        // nothing listens on port 1: the unstarted service never needs Kafka or Elasticsearch here
        ScalerSettings settings = ScalerSettings.fromValues(Map.of(
                "connect.url",
                "http://127.0.0.1:" + connect.getAddress().getPort(),
                "kafka.bootstrap.servers",
                "127.0.0.1:1",
                "elasticsearch.url",
                "http://127.0.0.1:1",
                "state.dir",
                stateDir.toString()));
        try (ScalerService service = new ScalerService(settings);
                ApiServer api = ApiServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service))) {
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            URI base = URI.create("http://127.0.0.1:" + api.address().getPort());
            assertEquals(404, scale(client, base, "no-such-0").statusCode());
            Set<String> series =
                    series(RawHttp.get(api.address(), MetricsRoutes.PATH).body());
            // one name in three through each route that takes a connector name; a keep-alive client keeps it quick
            for (int i = 1; i < UNKNOWN_NAMES; i++) {
                String name = "no-such-" + i;
                HttpResponse<String> answer = switch (i % 3) {
                    case 0 -> scale(client, base, name);
                    case 1 ->
                        client.send(
                                HttpRequest.newBuilder(base.resolve("/api/v1/connectors/" + name))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                    default ->
                        client.send(
                                HttpRequest.newBuilder(base.resolve("/api/v1/connectors/" + name + "/checks"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                };
                assertEquals(404, answer.statusCode(), answer.body());
            }
            String metrics = RawHttp.get(api.address(), MetricsRoutes.PATH).body();
            assertEquals(series, series(metrics), "the series after " + UNKNOWN_NAMES + " unknown names");
            long scales = (UNKNOWN_NAMES + 2) / 3;
            assertEquals(
                    1,
                    metrics.lines()
                            .filter(l -> l.equals(
                                    "kcscale_scale_actions_total{connector=\"\",outcome=\"unknown_connector\"} "
                                            + scales + ".0"))
                            .count(),
                    metrics);
            System.out.println("[measure] series in /metrics after " + UNKNOWN_NAMES + " unknown connector names: "
                    + series.size() + " (as after the first)");
        } finally {
            connect.stop(0);
        }
    }

    private static HttpResponse<String> scale(HttpClient client, URI base, String name)
            throws IOException, InterruptedException {
        return client.send(
                HttpRequest.newBuilder(base.resolve("/api/v1/connectors/" + name + "/scale"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"tasks\":2}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Each series of a Prometheus exposition: its name and labels, without the value. */
    private static Set<String> series(String exposition) {
        return exposition
                .lines()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.substring(0, l.lastIndexOf(' ')))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
