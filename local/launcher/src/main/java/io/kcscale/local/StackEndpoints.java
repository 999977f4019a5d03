package io.kcscale.local;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Where a running stack answers. */
public record StackEndpoints(String kafkaBootstrap, List<URI> connectUrls, URI elasticsearchUrl, URI scalerUrl, Path dataDir) {

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
                + " | data " + dataDir + " (logs in " + dataDir.resolve("logs") + ")";
    }
}
