package io.kcscale.scaler.elasticsearch;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.TreeSet;

import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kcscale.scaler.access.AccessProblem;
import io.kcscale.scaler.ports.SinkClusterReadings;

/** Reads what the scaler needs of the sink's index and the cluster that holds it. */
public final class ElasticsearchReadingsClient implements SinkClusterReadings {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ElasticsearchConnection connection;

    public ElasticsearchReadingsClient(ElasticsearchConnection connection) {
        this.connection = connection;
    }

    /** The index's primary shards and replicas, and the cluster's data nodes. */
    public IndexLayout indexLayout(String index) {
        return layoutOf(index, get("/" + index + "/_settings", "settings of index " + index), get("/_cluster/health", "cluster health"));
    }

    static IndexLayout layoutOf(String index, JsonNode settingsByIndex, JsonNode health) {
        JsonNode settings = settingsByIndex.path(index).path("settings").path("index");
        return new IndexLayout(settings.path("number_of_shards").asInt(), settings.path("number_of_replicas").asInt(),
                health.path("number_of_data_nodes").asInt());
    }

    /**
     * What a sampling round needs of many indexes, in four requests whatever their number: the indexes'
     * {@code _stats} and settings (an index that does not exist is left out, not a failure of the others),
     * the cluster's health and the write thread pools.
     */
    @Override
    public ElasticsearchBatchReading read(Collection<String> indexes) {
        String list = String.join(",", new TreeSet<>(indexes));
        return new ElasticsearchBatchReading(
                ElasticsearchBatchReading.Reply.of(() -> get(ignoringMissing("/" + list + "/_stats/docs,indexing"), "_stats of indexes " + list)),
                ElasticsearchBatchReading.Reply.of(() -> get(ignoringMissing("/" + list + "/_settings"), "settings of indexes " + list)),
                ElasticsearchBatchReading.Reply.of(() -> get("/_cluster/health", "cluster health")),
                ElasticsearchBatchReading.Reply.of(() -> get("/_nodes/stats/thread_pool", "thread pool stats")));
    }

    /** Write requests rejected ever and queued now, summed over the nodes' write thread pools. */
    @Override
    public WritePressure writePressure() {
        return pressureOf(get("/_nodes/stats/thread_pool", "thread pool stats"));
    }

    static WritePressure pressureOf(JsonNode threadPools) {
        long rejected = 0;
        int queue = 0;
        for (JsonNode node : threadPools.path("nodes")) {
            JsonNode write = node.path("thread_pool").path("write");
            rejected += write.path("rejected").asLong();
            queue += write.path("queue").asInt();
        }
        return new WritePressure(rejected, queue);
    }

    /**
     * Document count and indexing total of the index's primary shards, from {@code _stats}: read
     * untyped, because the 8.x client's typed stats response requires fields 7.17 does not send.
     */
    @Override
    public IndexStats indexStats(String index) {
        return statsOf(index, get("/" + index + "/_stats/docs,indexing", "_stats of index " + index));
    }

    static IndexStats statsOf(String index, JsonNode stats) {
        JsonNode primaries = stats.path("indices").path(index).path("primaries");
        if (primaries.isMissingNode()) {
            throw new ElasticsearchUnavailableException("index " + index + " has no statistics", null);
        }
        return new IndexStats(index, primaries.path("docs").path("count").asLong(),
                primaries.path("indexing").path("index_total").asLong());
    }

    private static Request ignoringMissing(String path) {
        Request request = new Request("GET", path);
        request.addParameter("ignore_unavailable", "true");
        return request;
    }

    private JsonNode get(String path, String what) {
        return get(new Request("GET", path), what);
    }

    /** A GET through the low-level client: typed 8.x responses for these calls do not parse against 7.17. */
    private JsonNode get(Request request, String what) {
        try {
            Response response = connection.restClient().performRequest(request);
            try (InputStream body = response.getEntity().getContent()) {
                return JSON.readTree(body);
            }
        } catch (IOException e) {
            int status = e instanceof ResponseException r ? r.getResponse().getStatusLine().getStatusCode() : -1;
            throw new ElasticsearchUnavailableException(AccessProblem.elasticsearch(connection.url(), status, e)
                    .orElse("cannot read " + what + ": " + e.getMessage()), e);
        }
    }
}
