package io.kcscale.local;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Where a running stack answers. {@code metricsUrls}: each worker's JMX exporter ({@code up --metrics}),
 * else empty; {@code prometheusUrl}: {@code up --prometheus}'s Prometheus, else null;
 * {@code sinkElasticsearchUrl}: where sinks write, the latency proxy ({@code --sink-latency-ms}) or else
 * Elasticsearch itself.
 */
public record StackEndpoints(
        String kafkaBootstrap,
        List<URI> connectUrls,
        URI elasticsearchUrl,
        URI scalerUrl,
        Path dataDir,
        List<URI> metricsUrls,
        URI prometheusUrl,
        URI sinkElasticsearchUrl) {

    /** A stack without metrics, its sinks writing to Elasticsearch directly. */
    public StackEndpoints(
            String kafkaBootstrap, List<URI> connectUrls, URI elasticsearchUrl, URI scalerUrl, Path dataDir) {
        this(kafkaBootstrap, connectUrls, elasticsearchUrl, scalerUrl, dataDir, List.of(), null, elasticsearchUrl);
    }

    /** {@code host:port} for a sink connector's config ({@code ES_HOST_PORT}): through the latency proxy when there is one. */
    public String sinkElasticsearchHostPort() {
        return sinkElasticsearchUrl.getHost() + ":" + sinkElasticsearchUrl.getPort();
    }

    /** Whether sinks write through the latency proxy. */
    public boolean sinkLatencyProxied() {
        return !sinkElasticsearchUrl.equals(elasticsearchUrl);
    }

    /** The first worker: any worker of the group serves the whole REST API. */
    public URI connectUrl() {
        return connectUrls.get(0);
    }

    /**
     * Each worker with an exporter, as a scaler's {@code worker.metrics.urls} names it: {@code host:port=URL}, the
     * worker as Connect names it and its exporter.
     */
    public List<String> workerMetricsUrls() {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < metricsUrls.size(); i++) {
            URI worker = connectUrls.get(i);
            pairs.add(worker.getHost() + ":" + worker.getPort() + "=" + metricsUrls.get(i));
        }
        return pairs;
    }

    /** The one line {@code up} prints. */
    public String describe() {
        return "kafka " + kafkaBootstrap
                + " | connect " + connectUrls.stream().map(URI::toString).collect(Collectors.joining(", "))
                + " | elasticsearch " + elasticsearchUrl
                + (sinkLatencyProxied() ? " (sinks write through " + sinkElasticsearchUrl + ", a delay proxy)" : "")
                + " | scaler " + scalerUrl
                + (metricsUrls.isEmpty()
                        ? ""
                        : " | metrics "
                                + metricsUrls.stream().map(URI::toString).collect(Collectors.joining(", ")))
                + (prometheusUrl == null ? "" : " | prometheus " + prometheusUrl)
                + " | data " + dataDir + " (logs in " + dataDir.resolve("logs") + ")";
    }
}
