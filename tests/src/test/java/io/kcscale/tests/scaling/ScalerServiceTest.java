package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.CliInProcess;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scaler service that {@code up} starts, on the real stack under a steady load: it scales
 * 1 → 3 → 2 with exactly those tasks running, its per-task rates agree with Elasticsearch, and
 * every refusal leaves the connector's config byte-identical.
 */
@Order(3)
@ExtendWith(SharedStack.class)
class ScalerServiceTest {

    private static final String SINK = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;

    @Test
    @Order(1)
    void scalesOneToThreeToTwoWithExactlyThoseTasksRunningAndIndexing(LocalStack stack) throws Exception {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        try (StackProbe probe = new StackProbe(stack)) {
            probe.updateConnector(StackOptions.SOURCE_CONNECTOR, Map.of("iterations", "-1", "rate.per.task", "300"));
            scaleTo(scaler, 1);
            for (int n : new int[] {3, 2}) {
                JsonNode result = scaleTo(scaler, n);
                System.out.println(
                        "[measure] scale to " + n + ": rebalance pause " + result.path("rebalancePauseSeconds") + " s");
                assertEquals(
                        n,
                        probe.connect
                                .connectorStatus(StackOptions.SINK_CONNECTOR)
                                .tasksInState("RUNNING"));
                JsonNode snapshot = Poll.until(
                        n + " tasks each with a non-zero rate", Duration.ofSeconds(60), Duration.ofMillis(500), () -> {
                            JsonNode s = scaler.get(SINK).body();
                            List<JsonNode> tasks = new ArrayList<>();
                            s.path("tasks").forEach(tasks::add);
                            boolean ok = tasks.size() == n
                                    && tasks.stream()
                                            .allMatch(t -> "RUNNING"
                                                            .equals(t.path("state")
                                                                    .asText())
                                                    && t.path("recordsPerSecond")
                                                                    .asDouble(0)
                                                            > 0);
                            if (!ok) {
                                throw new IllegalStateException("tasks " + s.path("tasks"));
                            }
                            return Optional.of(s);
                        });
                assertEquals(n, snapshot.path("tasksMax").asInt());
            }
        }
    }

    @Test
    @Order(2)
    void perTaskRatesAgreeWithElasticsearchsIndexRateAtASteadyLoad(LocalStack stack) {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        // steady state as the field defines it: stable (a whole window without a rebalance, offsets advancing,
        // all tasks running), input ~ output, and lag near zero (Little's latency under 2 s)
        JsonNode s = Poll.until(
                "a steady pipeline over a full window", Duration.ofSeconds(180), Duration.ofSeconds(1), () -> {
                    JsonNode body = scaler.get(SINK).body();
                    double append = body.path("rates").path("appendPerSecond").asDouble();
                    double sink = body.path("rates").path("sinkPerSecond").asDouble();
                    if (!body.path("stable").asBoolean()
                            || body.path("latencySeconds").asDouble(99) >= 2
                            || Math.abs(append - sink) > 0.05 * append) {
                        throw new IllegalStateException(
                                "stable " + body.path("stable") + " " + body.path("reasons") + ", append " + append
                                        + "/s, sink " + sink + "/s, latency " + body.path("latencySeconds"));
                    }
                    return Optional.of(body);
                });
        double perTaskSum = 0;
        for (JsonNode t : s.path("tasks")) {
            perTaskSum += t.path("recordsPerSecond").asDouble();
        }
        double indexRate = s.path("rates").path("indexPerSecond").asDouble();
        System.out.println("[measure] per-task sum " + perTaskSum + "/s, index rate " + indexRate + "/s, append "
                + s.path("rates").path("appendPerSecond") + "/s, latency " + s.path("latencySeconds") + " s");
        assertTrue(indexRate > 100, "steady load of 300/s expected, index rate " + indexRate);
        assertTrue(
                Math.abs(perTaskSum - indexRate) / indexRate <= 0.10,
                "per-task rates " + perTaskSum + " vs Elasticsearch " + indexRate + ": more than 10% apart; " + s);
    }

    @Test
    @Order(3)
    void everyRefusalLeavesTheConfigByteIdenticalAndSaysWhy(LocalStack stack) throws Exception {
        ScalerHttp scaler = new ScalerHttp(stack.endpoints().scalerUrl());
        String before = rawConfig(stack);
        String[][] cases = {
            {"{\"tasks\":0}", "422", "at least 1"},
            {"{\"tasks\":101}", "422", "above the task cap of 100"},
            {"{\"tasks\":21}", "422", "above the 20 partitions"},
            {"{\"tasks\":2.5}", "400", "whole number"},
            {"{\"tasks\":\"3\"}", "400", "whole number"},
            {"{}", "400", "tasks is required"},
            {"{\"tasks\":3,\"replicas\":1}", "400", "replicas is not a field"},
            {"not json", "400", "malformed JSON"},
            // forced: the checks' gate is ScalingChecksTest's; on two shared cores worker-capacity may rightly refuse
            {"{\"tasks\":3,\"dryRun\":true,\"force\":true}", "200", "\"plan\" : \"set tasks.max of stocks-es-sink"},
        };
        for (String[] c : cases) {
            ScalerHttp.Answer a = scaler.post(SINK + "/scale", c[0]);
            assertEquals(Integer.parseInt(c[1]), a.status(), c[0] + " -> " + a.raw());
            assertTrue(a.raw().contains(c[2]), c[0] + " -> " + a.raw());
            assertEquals(before, rawConfig(stack), "config changed by " + c[0]);
        }
        ScalerHttp.Answer source =
                scaler.post("/api/v1/connectors/" + StackOptions.SOURCE_CONNECTOR + "/scale", "{\"tasks\":2}");
        assertEquals(422, source.status(), source.raw());
        assertTrue(source.raw().contains("not a sink"), source.raw());
        ScalerHttp.Answer unknown = scaler.post("/api/v1/connectors/no-such-sink/scale", "{\"tasks\":2}");
        assertEquals(404, unknown.status(), unknown.raw());
        assertEquals(404, scaler.get("/api/v1/connectors/no-such-sink").status());
        assertEquals(before, rawConfig(stack));
    }

    @Test
    @Order(4)
    void theCliShowsStatusAndScalesThroughTheApi(LocalStack stack) {
        String url = stack.endpoints().scalerUrl().toString();
        CliInProcess.Run status = CliInProcess.run("status", StackOptions.SINK_CONNECTOR, "--scaler-url", url);
        assertEquals(0, status.exit(), status.err());
        assertTrue(
                status.out().contains(StackOptions.SINK_CONNECTOR)
                        && status.out().contains("TASK"),
                status.out());
        CliInProcess.Run refused =
                CliInProcess.run("scale", StackOptions.SINK_CONNECTOR, "--tasks", "0", "--scaler-url", url);
        assertEquals(1, refused.exit());
        assertEquals(1, refused.err().strip().lines().count(), "one line: " + refused.err());
        assertTrue(refused.err().contains("refused (422)"), refused.err());
        // forced, as above: this is the CLI's path to the API, not the checks' gate
        CliInProcess.Run dry = CliInProcess.run(
                "scale", StackOptions.SINK_CONNECTOR, "--tasks", "3", "--dry-run", "--force", "--scaler-url", url);
        assertEquals(0, dry.exit(), dry.err());
        assertTrue(dry.out().startsWith("dry run: would set tasks.max"), dry.out());

        // a live per-task rate is a capacity only while the pipeline is saturated (a backlog not draining)
        JsonNode now = new ScalerHttp(stack.endpoints().scalerUrl()).get(SINK).body();
        boolean saturated = now.path("lag").path("total").asLong()
                        >= now.path("rates").path("sinkPerSecond").asDouble()
                && now.path("rates").path("appendPerSecond").asDouble()
                        >= 0.98 * now.path("rates").path("sinkPerSecond").asDouble();
        CliInProcess.Run measured = CliInProcess.run(
                "predict",
                "tasks",
                "--target-rate",
                "10000",
                "--measure",
                StackOptions.SINK_CONNECTOR,
                "--scaler-url",
                url);
        if (saturated) {
            assertEquals(0, measured.exit(), measured.err());
            assertTrue(measured.err().contains("measured on " + StackOptions.SINK_CONNECTOR), measured.err());
        } else {
            assertEquals(2, measured.exit(), measured.out() + measured.err());
            assertTrue(measured.err().contains("is not saturated"), measured.err());
        }
    }

    @Test
    @Order(5)
    void metricsCarryEveryFigurePerConnectorAndPerTask(LocalStack stack) {
        String metrics =
                new ScalerHttp(stack.endpoints().scalerUrl()).get("/metrics").raw();
        for (String name : List.of(
                "kcscale_sink_rate_records_per_second{connector=\"stocks-es-sink\"}",
                "kcscale_append_rate_records_per_second{connector=\"stocks-es-sink\"}",
                "kcscale_index_rate_operations_per_second{connector=\"stocks-es-sink\"}",
                "kcscale_lag_records{connector=\"stocks-es-sink\"}",
                "kcscale_task_sink_rate_records_per_second{connector=\"stocks-es-sink\",task=\"0\"}",
                "kcscale_partition_lag_records{connector=\"stocks-es-sink\",partition=\"19\",topic=\"stocks\"}",
                "kcscale_scale_actions_total{connector=\"stocks-es-sink\",outcome=\"applied\"}",
                "kcscale_last_rebalance_pause_seconds{connector=\"stocks-es-sink\"}")) {
            assertTrue(metrics.contains(name), name + " missing from /metrics:\n" + metrics);
        }
    }

    @Test
    @Order(6)
    void snapshotLatencyOnTheLocalStack(LocalStack stack) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest get = HttpRequest.newBuilder(stack.endpoints().scalerUrl().resolve(SINK))
                .build();
        long[] micros = new long[300];
        for (int i = 0; i < micros.length; i++) {
            long t0 = System.nanoTime();
            assertEquals(
                    200, http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode());
            micros[i] = (System.nanoTime() - t0) / 1000;
        }
        Arrays.sort(micros);
        long p50 = micros[micros.length / 2];
        long p99 = micros[(int) (micros.length * 0.99)];
        System.out.printf(
                "[measure] GET %s over %d calls: p50 %.2f ms, p99 %.2f ms%n",
                SINK, micros.length, p50 / 1000.0, p99 / 1000.0);
        assertTrue(p99 < 250_000, "p99 " + p99 + " µs: snapshots are served from memory and must be fast");
    }

    private static JsonNode scaleTo(ScalerHttp scaler, int n) {
        ScalerHttp.Answer a = scaler.post(SINK + "/scale", "{\"tasks\":" + n + "}");
        assertEquals(200, a.status(), a.raw());
        assertEquals(n, a.body().path("after").asInt());
        assertEquals(n, a.body().path("tasksRunning").asInt());
        return a.body();
    }

    private static String rawConfig(LocalStack stack) throws Exception {
        URI uri = stack.endpoints().connectUrl().resolve("/connectors/" + StackOptions.SINK_CONNECTOR + "/config");
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
