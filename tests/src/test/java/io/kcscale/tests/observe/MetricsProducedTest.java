package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The rules and the dashboard query only what exists: on the shared stack, which runs as
 * {@code ./kcscale up --prometheus} does (the JMX exporter on every worker, Prometheus with
 * configs/prometheus/), every metric name a rule or dashboard uses is exposed by a worker's exporter
 * or the scaler's /metrics, or recorded by a rule; the exporter's labels are whole values; and
 * Prometheus evaluates every rule without error, the recording rules yielding the sink's figures.
 */
@Order(8)
@ExtendWith(SharedStack.class)
class MetricsProducedTest {

    private static final String SINK = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;
    /** Prometheus makes {@code up} for every target itself. */
    private static final Set<String> MADE_BY_PROMETHEUS = Set.of("up");

    @Test
    @Order(1)
    void everyMetricNameTheRulesAndDashboardsUseIsExposedOrRecorded(LocalStack stack) {
        makeEveryFigureExist(stack);
        MetricNamesInUse inUse = MetricNamesInUse.read(RepositoryFiles.home());
        // some figures need a full window of flow (the scaler's latency needs a sink rate): scraped until all are
        // there, else the poll fails with the names still missing
        Poll.until("every metric name in use to be exposed", Duration.ofSeconds(120), Duration.ofSeconds(2), () -> {
            Set<String> exposed = new TreeSet<>();
            scrapes(stack).forEach(s -> s.samples().forEach(sample -> exposed.add(sample.name())));
            Map<String, Set<String>> left = new TreeMap<>(inUse.usedBy);
            left.keySet().removeAll(exposed);
            left.keySet().removeAll(inUse.recorded);
            left.keySet().removeAll(MADE_BY_PROMETHEUS);
            if (!left.isEmpty()) {
                throw new IllegalStateException(
                        "names no target exposes and no rule records (name -> used by): " + left);
            }
            System.out.println("[measure] " + inUse.usedBy.size() + " metric names in use, " + exposed.size()
                    + " exposed by the workers' exporters and the scaler, " + inUse.recorded.size()
                    + " recorded by rules");
            return Optional.of(exposed);
        });
    }

    @Test
    @Order(2)
    void exporterLabelValuesAreWholeValues(LocalStack stack) {
        List<ExpositionText> exporters = stack.endpoints().metricsUrls().stream()
                .map(ExpositionText::scrape)
                .toList();
        for (ExpositionText exporter : exporters) {
            for (ExpositionText.Sample s : exporter.samples()) {
                // a greedy (.+) across ", key=" would leave a comma or '=' inside a label value
                s.labels()
                        .forEach((k, v) -> assertFalse(
                                v.contains(",") || v.contains("="), s + " has a label value spanning keys"));
            }
        }
        assertEquals(
                sinkPartitions(exporters, "kafka_consumer_records_lag"),
                sinkPartitions(exporters, "kafka_consumer_records_lag_max"),
                "records-lag and records-lag-max are two metrics, each per partition");
    }

    @Test
    @Order(3)
    void prometheusEvaluatesEveryRuleOnTheLocalStack(LocalStack stack) {
        URI prometheus = stack.endpoints().prometheusUrl();
        // health is that of the last scrape: one may have met a worker in the middle of a rebalance
        Poll.until("every target up", Duration.ofSeconds(30), Duration.ofSeconds(1), () -> {
            for (JsonNode target :
                    get(prometheus, "/api/v1/targets").path("data").path("activeTargets")) {
                if (!target.path("health").asText().equals("up")) {
                    throw new IllegalStateException(
                            "target " + target.path("scrapeUrl") + ": " + target.path("lastError"));
                }
            }
            return Optional.of(true);
        });
        for (JsonNode group : get(prometheus, "/api/v1/rules").path("data").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                assertEquals("ok", rule.path("health").asText(), rule.path("name") + ": " + rule.path("lastError"));
            }
        }
        // rates need two scrapes inside their 1m window after the flow began
        for (String series : List.of(
                "connector_task:sink_records:rate1m",
                "connector:sink_records:rate1m",
                "connector:sink_lag_records:sum",
                "connector:sink_latency_seconds:littles_law")) {
            Poll.until(
                    series + " for " + StackOptions.SINK_CONNECTOR,
                    Duration.ofSeconds(90),
                    Duration.ofSeconds(2),
                    () -> {
                        JsonNode result =
                                query(prometheus, series + "{connector=\"" + StackOptions.SINK_CONNECTOR + "\"}");
                        if (result.isEmpty()
                                || (series.contains("rate")
                                        && result.get(0).path("value").get(1).asDouble() <= 0)) {
                            throw new IllegalStateException("got " + result);
                        }
                        return Optional.of(result);
                    });
        }
        assertFalse(
                query(
                                prometheus,
                                "connector:source_records:rate1m{connector=\"" + StackOptions.SOURCE_CONNECTOR
                                        + "\"} > 0")
                        .isEmpty(),
                "the source's write rate is recorded");
    }

    /**
     * Some series exist only once something happened: records flowing, a scale applied (the action
     * counter and the measured pause). Both happen here, whatever ran before.
     */
    private static void makeEveryFigureExist(LocalStack stack) {
        try (StackProbe probe = new StackProbe(stack)) {
            probe.updateConnector(StackOptions.SOURCE_CONNECTOR, Map.of("iterations", "-1", "rate.per.task", "300"));
            int tasks = Integer.parseInt(
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"));
            ScalerHttp.Answer scaled = new ScalerHttp(stack.endpoints().scalerUrl())
                    .post(SINK + "/scale", "{\"tasks\":" + (tasks == 2 ? 3 : 2) + "}");
            assertEquals(200, scaled.status(), scaled.raw());
            // a partition's lag metric appears once its owner, after the scale's rebalance, has fetched from it
            Poll.untilTrue(
                    "the sink's consumers to report lag",
                    Duration.ofSeconds(120),
                    Duration.ofSeconds(1),
                    () -> !sinkPartitions(scrapes(stack), "kafka_consumer_records_lag")
                            .isEmpty(),
                    () -> "no partition yet");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> sinkPartitions(List<ExpositionText> scrapes, String metric) {
        Set<String> partitions = new TreeSet<>();
        scrapes.forEach(e -> e.samples().stream()
                .filter(s -> s.name().equals(metric)
                        && StackOptions.SINK_CONNECTOR.equals(s.labels().get("connector")))
                .forEach(s -> partitions.add(s.labels().get("partition"))));
        return partitions;
    }

    private static List<ExpositionText> scrapes(LocalStack stack) {
        List<ExpositionText> all = new ArrayList<>();
        stack.endpoints().metricsUrls().forEach(u -> all.add(ExpositionText.scrape(u)));
        all.add(ExpositionText.scrape(stack.endpoints().scalerUrl().resolve("/metrics")));
        return all;
    }

    private static JsonNode query(URI prometheus, String promql) {
        return get(prometheus, "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                .path("data")
                .path("result");
    }

    private static JsonNode get(URI prometheus, String pathAndQuery) {
        ScalerHttp.Answer a = new ScalerHttp(prometheus).get(pathAndQuery);
        assertEquals(200, a.status(), pathAndQuery + " -> " + a.raw());
        return a.body();
    }
}
