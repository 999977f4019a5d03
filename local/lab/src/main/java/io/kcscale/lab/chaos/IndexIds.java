package io.kcscale.lab.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

/**
 * Every document id of an index, read with a scroll in index order ({@code _doc}, the cheapest) without
 * sources: one page of ids in memory at a time, however large the index.
 */
final class IndexIds {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PAGE = 10_000;
    private static final String KEEP_ALIVE = "2m";

    private IndexIds() {}

    /** Refreshes {@code index} (every acknowledged write becomes searchable) and hands each id to {@code each}; returns the count. */
    static long scan(RestClient elasticsearch, String index, Consumer<String> each) {
        call(elasticsearch, "POST", "/" + index + "/_refresh", null);
        JsonNode page = call(
                elasticsearch,
                "POST",
                "/" + index + "/_search?scroll=" + KEEP_ALIVE,
                "{\"size\":" + PAGE + ",\"_source\":false,\"sort\":[\"_doc\"],\"query\":{\"match_all\":{}}}");
        long seen = 0;
        String scrollId = page.path("_scroll_id").asText();
        try {
            while (page.path("hits").path("hits").size() > 0) {
                for (JsonNode hit : page.path("hits").path("hits")) {
                    each.accept(hit.path("_id").asText());
                    seen++;
                }
                page = call(
                        elasticsearch,
                        "POST",
                        "/_search/scroll",
                        "{\"scroll\":\"" + KEEP_ALIVE + "\",\"scroll_id\":\"" + scrollId + "\"}");
                scrollId = page.path("_scroll_id").asText();
            }
        } finally {
            call(elasticsearch, "DELETE", "/_search/scroll", "{\"scroll_id\":\"" + scrollId + "\"}");
        }
        return seen;
    }

    private static JsonNode call(RestClient elasticsearch, String method, String path, String body) {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        try (InputStream in = elasticsearch.performRequest(request).getEntity().getContent()) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        }
    }
}
