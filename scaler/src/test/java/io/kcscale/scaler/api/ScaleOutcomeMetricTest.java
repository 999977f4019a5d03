package io.kcscale.scaler.api;

import com.sun.net.httpserver.HttpServer;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Anyone may send any connector name: the scale-outcome metric must not keep a series per name. */
class ScaleOutcomeMetricTest {

    @Test
    void scalesOfUnknownConnectorsAddNoSeries(@TempDir Path stateDir) throws IOException {
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
                "connect.url", "http://127.0.0.1:" + connect.getAddress().getPort(),
                "kafka.bootstrap.servers", "127.0.0.1:1", "elasticsearch.url", "http://127.0.0.1:1",
                "state.dir", stateDir.toString()));
        try (ScalerService service = new ScalerService(settings);
             ApiServer api = ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service))) {
            for (int i = 0; i < 300; i++) {
                RawHttp answer = RawHttp.send(api.address(), "POST /api/v1/connectors/no-such-" + i + "/scale HTTP/1.1\r\nHost: 127.0.0.1:"
                        + api.address().getPort() + "\r\nContent-Type: application/json", "{\"tasks\":2}");
                assertEquals(404, answer.status(), answer.body());
            }
            String metrics = RawHttp.get(api.address(), MetricsRoutes.PATH).body();
            assertEquals(1, metrics.lines().filter(l -> l.startsWith("kcscale_scale_actions_total{")).count(), metrics);
            assertEquals(1, metrics.lines().filter(l -> l.equals(
                    "kcscale_scale_actions_total{connector=\"\",outcome=\"unknown_connector\"} 300.0")).count(), metrics);
        } finally {
            connect.stop(0);
        }
    }
}
