package io.kcscale.local;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Where a running stack answers. {@code metricsUrls}: each worker's JMX exporter ({@code up --metrics}),
 * else empty; {@code prometheusUrl}: {@code up --prometheus}'s Prometheus, else null.
 */
public record StackEndpoints(String kafkaBootstrap, List<URI> connectUrls, URI elasticsearchUrl, URI scalerUrl, Path dataDir,
                             List<URI> metricsUrls, URI prometheusUrl) {

    /** A stack without metrics. */
    public StackEndpoints(String kafkaBootstrap, List<URI> connectUrls, URI elasticsearchUrl, URI scalerUrl, Path dataDir) {
        this(kafkaBootstrap, connectUrls, elasticsearchUrl, scalerUrl, dataDir, List.of(), null);
    }

    /** The first worker: any worker of the group serves the whole REST API. */
    public URI connectUrl() {
        return connectUrls.get(0);
    }

    /** The one line {@code up} prints. */
    public String describe() {
        return "kafka " + kafkaBootstrap
                + " | connect " + connectUrls.stream().map(URI::toString).collect(Collectors.joining(", "))
                + " | elasticsearch " + elasticsearchUrl
                + " | scaler " + scalerUrl
                + (metricsUrls.isEmpty() ? "" : " | metrics " + metricsUrls.stream().map(URI::toString).collect(Collectors.joining(", ")))
                + (prometheusUrl == null ? "" : " | prometheus " + prometheusUrl)
                + " | data " + dataDir + " (logs in " + dataDir.resolve("logs") + ")";
    }
}
