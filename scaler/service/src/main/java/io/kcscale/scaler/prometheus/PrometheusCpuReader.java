package io.kcscale.scaler.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.scaler.checks.WorkerCpu;
import io.kcscale.scaler.checks.WorkerCpuRates;
import io.kcscale.scaler.checks.WorkerCpuSource;
import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Workers' CPU from a Prometheus server that scrapes their JMX exporters, through its query API: the rate of each
 * process's CPU counter over the last {@link #WINDOW}, its processors, its host's load and its start, by the
 * {@code instance} label of its exporter. A worker Prometheus has no series of is unknown, saying so.
 */
public final class PrometheusCpuReader {

    /** The rate's window: at the usual 5 to 15 s scrape interval, several scrapes. */
    static final Duration WINDOW = Duration.ofMinutes(1);

    static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** One sample per worker and query: a result past this is not the few series asked for. */
    static final int MAX_BYTES = 1 << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI server;
    private final BoundedGet get = new BoundedGet(TIMEOUT, MAX_BYTES);

    public PrometheusCpuReader(URI server) {
        this.server = server;
    }

    /** Each worker's CPU, by worker, given each worker's {@code instance} label. */
    public Map<String, WorkerCpu> read(Map<String, String> instances) {
        Map<String, WorkerCpu> read = new TreeMap<>();
        if (instances.isEmpty()) {
            return read;
        }
        String selector = "{instance=~\""
                + new TreeSet<>(instances.values())
                        .stream().map(PrometheusCpuReader::escaped).collect(Collectors.joining("|"))
                + "\"}";
        String rate = "rate(" + ExporterText.CPU_SECONDS + selector + "[" + WINDOW.toSeconds() + "s])";
        // all four at once: the wait is one query's, not four; each answer is read (or timed out), so none is left open
        List<Pending> pending = List.of(
                query(rate),
                query(ExporterText.PROCESSORS + selector),
                query(ExporterText.HOST_LOAD + selector),
                query(ExporterText.START_SECONDS + selector));
        List<Map<String, double[]>> answers = new ArrayList<>();
        MetricsReadException failed = null;
        for (Pending q : pending) {
            try {
                answers.add(q.samples());
            } catch (MetricsReadException e) {
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            String why = "prometheus: " + failed.getMessage();
            instances.keySet().forEach(id -> read.put(id, WorkerCpu.unknown(id, why)));
            return read;
        }
        Map<String, double[]> cores = answers.get(0);
        Map<String, double[]> processors = answers.get(1);
        Map<String, double[]> load = answers.get(2);
        Map<String, double[]> start = answers.get(3);
        instances.forEach((id, instance) -> {
            double[] c = cores.get(instance);
            read.put(
                    id,
                    c == null
                            ? WorkerCpu.unknown(
                                    id,
                                    "prometheus: no " + ExporterText.CPU_SECONDS + " of instance " + instance
                                            + " over the last " + WINDOW.toSeconds()
                                            + " s (does it scrape that exporter?)")
                            : WorkerCpuRates.ofRate(
                                    id,
                                    c[1],
                                    value(processors, instance),
                                    value(load, instance),
                                    value(start, instance),
                                    c[0],
                                    WINDOW,
                                    WorkerCpuSource.PROMETHEUS));
        });
        return read;
    }

    /** A query sent; its samples once answered. */
    private final class Pending {
        private final URI uri;
        private final CompletableFuture<HttpResponse<InputStream>> answer;

        Pending(URI uri) {
            this.uri = uri;
            this.answer = get.start(uri);
        }

        Map<String, double[]> samples() throws MetricsReadException {
            return vector(get.body(uri, answer), server.toString());
        }
    }

    private Pending query(String promql) {
        return new Pending(server.resolve("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
    }

    /**
     * An instant vector's samples by {@code instance}: [evaluation time in epoch seconds, value]. Where two series share
     * an instance (two jobs scraping one exporter) the higher value is kept: both measure the same process.
     */
    static Map<String, double[]> vector(String body, String server) throws MetricsReadException {
        Map<String, double[]> samples = new TreeMap<>();
        for (JsonNode series : result(body, server)) {
            JsonNode value = series.path("value");
            String instance = series.path("metric").path("instance").asText(null);
            if (instance == null || value.size() != 2) {
                continue;
            }
            double at = value.get(0).asDouble(Double.NaN);
            double v;
            try {
                v = Double.parseDouble(value.get(1).asText());
            } catch (NumberFormatException e) {
                continue;
            }
            samples.merge(instance, new double[] {at, v}, (a, b) -> a[1] >= b[1] ? a : b);
        }
        return samples;
    }

    /** The series of a query's answer ({@code data.result}); a line saying what came back when it is no such answer. */
    static JsonNode result(String body, String server) throws MetricsReadException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (Exception e) {
            throw new MetricsReadException(server + " answered no Prometheus query result (is it Prometheus's URL?)");
        }
        if (root == null || !"success".equals(root.path("status").asText())) {
            throw new MetricsReadException(server + " refused the query: "
                    + (root == null ? "empty answer" : root.path("error").asText("no error given")));
        }
        return root.path("data").path("result");
    }

    private static double value(Map<String, double[]> samples, String instance) {
        double[] s = samples.get(instance);
        return s == null ? Double.NaN : s[1];
    }

    /** A label value as a literal inside a PromQL regex in a double-quoted string. */
    static String escaped(String value) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (!Character.isLetterOrDigit(c) && c != ':' && c != '_' && c != '-') {
                out.append("\\\\");
            }
            out.append(c == '"' ? "\\\"" : String.valueOf(c));
        }
        return out.toString();
    }
}
