package io.kcscale.scaler.observe.elasticsearch;

import java.io.IOException;
import java.io.InputStream;

import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads what the scaler needs of one index. */
public final class ElasticsearchObserver {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ElasticsearchConnection connection;

    public ElasticsearchObserver(ElasticsearchConnection connection) {
        this.connection = connection;
    }

    /**
     * Document count and indexing total of the index's primary shards, from {@code _stats}: read
     * untyped, because the 8.x client's typed stats response requires fields 7.17 does not send.
     */
    public IndexStats indexStats(String index) {
        Request request = new Request("GET", "/" + index + "/_stats/docs,indexing");
        try {
            Response response = connection.restClient().performRequest(request);
            JsonNode primaries;
            try (InputStream body = response.getEntity().getContent()) {
                primaries = JSON.readTree(body).path("indices").path(index).path("primaries");
            }
            if (primaries.isMissingNode()) {
                throw new ElasticsearchUnavailableException("index " + index + " has no statistics", null);
            }
            return new IndexStats(index, primaries.path("docs").path("count").asLong(),
                    primaries.path("indexing").path("index_total").asLong());
        } catch (IOException e) {
            throw new ElasticsearchUnavailableException("cannot read _stats of index " + index + ": " + e.getMessage(), e);
        }
    }

    /** {@code docsCount}: documents visible after the last refresh; {@code indexTotal}: index operations ever. */
    public record IndexStats(String index, long docsCount, long indexTotal) {
    }
}
