package io.kcscale.scaler.elasticsearch;

import java.io.IOException;
import java.io.InputStream;

import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kcscale.scaler.access.AccessProblem;

/** Reads what the scaler needs of the sink's index and the cluster that holds it. */
public final class ElasticsearchObserver {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ElasticsearchConnection connection;

    public ElasticsearchObserver(ElasticsearchConnection connection) {
        this.connection = connection;
    }

    /** The index's primary shards and replicas, and the cluster's data nodes. */
    public IndexLayout indexLayout(String index) {
        JsonNode settings = get("/" + index + "/_settings", "settings of index " + index)
                .path(index).path("settings").path("index");
        JsonNode health = get("/_cluster/health", "cluster health");
        return new IndexLayout(settings.path("number_of_shards").asInt(), settings.path("number_of_replicas").asInt(),
                health.path("number_of_data_nodes").asInt());
    }

    public record IndexLayout(int primaryShards, int replicas, int dataNodes) {
    }

    /** Write requests rejected ever and queued now, summed over the nodes' write thread pools. */
    public WritePressure writePressure() {
        long rejected = 0;
        int queue = 0;
        for (JsonNode node : get("/_nodes/stats/thread_pool", "thread pool stats").path("nodes")) {
            JsonNode write = node.path("thread_pool").path("write");
            rejected += write.path("rejected").asLong();
            queue += write.path("queue").asInt();
        }
        return new WritePressure(rejected, queue);
    }

    public record WritePressure(long rejected, int queue) {
    }

    /**
     * Document count and indexing total of the index's primary shards, from {@code _stats}: read
     * untyped, because the 8.x client's typed stats response requires fields 7.17 does not send.
     */
    public IndexStats indexStats(String index) {
        JsonNode primaries = get("/" + index + "/_stats/docs,indexing", "_stats of index " + index)
                .path("indices").path(index).path("primaries");
        if (primaries.isMissingNode()) {
            throw new ElasticsearchUnavailableException("index " + index + " has no statistics", null);
        }
        return new IndexStats(index, primaries.path("docs").path("count").asLong(),
                primaries.path("indexing").path("index_total").asLong());
    }

    /** A GET through the low-level client: typed 8.x responses for these calls do not parse against 7.17. */
    private JsonNode get(String path, String what) {
        try {
            Response response = connection.restClient().performRequest(new Request("GET", path));
            try (InputStream body = response.getEntity().getContent()) {
                return JSON.readTree(body);
            }
        } catch (IOException e) {
            int status = e instanceof ResponseException r ? r.getResponse().getStatusLine().getStatusCode() : -1;
            throw new ElasticsearchUnavailableException(AccessProblem.elasticsearch(connection.url(), status, e)
                    .orElse("cannot read " + what + ": " + e.getMessage()), e);
        }
    }

    /** {@code docsCount}: documents visible after the last refresh; {@code indexTotal}: index operations ever. */
    public record IndexStats(String index, long docsCount, long indexTotal) {
    }
}
