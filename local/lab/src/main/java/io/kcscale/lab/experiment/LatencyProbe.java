package io.kcscale.lab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

/**
 * Measures end-to-end latency after a hold window: draws a seeded random sample of the documents each
 * primary shard indexed during the window (by sequence number), and compares each one's
 * {@code produced_at_ms} with when the {@link SeqNoTimeline} says it was indexed. Both clocks are this
 * machine's wall clock. Not included: the refresh (up to 1 s) before a document shows in searches.
 */
final class LatencyProbe {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PRODUCED_AT = "produced_at_ms";

    private final RestClient elasticsearch;
    private final int perShard;
    private final long seed;

    /** @param perShard documents to sample from each shard */
    LatencyProbe(RestClient elasticsearch, int perShard, long seed) {
        this.elasticsearch = elasticsearch;
        this.perShard = perShard;
        this.seed = seed;
    }

    /** The latency of documents indexed between the two times; empty when the window indexed none the clock can place. */
    Optional<Latency> measure(String index, int shards, SeqNoTimeline timeline, double fromMillis, double toMillis) {
        refresh(index);
        List<Double> latencies = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            OptionalLong first = timeline.maxSeqNoAt(shard, fromMillis);
            OptionalLong last = timeline.maxSeqNoAt(shard, toMillis);
            if (first.isEmpty() || last.isEmpty() || last.getAsLong() <= first.getAsLong()) {
                continue;
            }
            for (JsonNode hit : sample(index, shard, first.getAsLong(), last.getAsLong())) {
                OptionalDouble indexedAt =
                        timeline.indexedAt(shard, hit.path("_seq_no").asLong());
                JsonNode producedAt = hit.path("_source").path(PRODUCED_AT);
                if (indexedAt.isPresent() && producedAt.isNumber()) {
                    latencies.add(indexedAt.getAsDouble() - producedAt.asLong());
                }
            }
        }
        if (latencies.isEmpty()) {
            return Optional.empty();
        }
        Percentiles p = new Percentiles(
                latencies.stream().mapToDouble(Double::doubleValue).toArray());
        return Optional.of(new Latency(p.at(0.50), p.at(0.99), p.size()));
    }

    /** Makes everything indexed so far searchable, so that the sample can draw from the whole window. */
    private void refresh(String index) {
        try {
            elasticsearch.performRequest(new Request("POST", "/" + index + "/_refresh"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot refresh " + index + ": " + e.getMessage(), e);
        }
    }

    /** Up to {@code perShard} documents of one shard with sequence numbers in (after, upTo], in a seeded random order. */
    private JsonNode sample(String index, int shard, long after, long upTo) {
        ObjectNode body = JSON.createObjectNode();
        body.put("size", perShard);
        body.put("seq_no_primary_term", true);
        body.putArray("_source").add(PRODUCED_AT);
        ObjectNode score = body.putObject("query").putObject("function_score");
        score.putObject("query")
                .putObject("range")
                .putObject("_seq_no")
                .put("gt", after)
                .put("lte", upTo);
        score.putObject("random_score").put("seed", seed).put("field", "_seq_no");
        score.put("boost_mode", "replace");
        Request request = new Request("GET", "/" + index + "/_search");
        request.addParameter("preference", "_shards:" + shard);
        request.setJsonEntity(body.toString());
        try (InputStream in = elasticsearch.performRequest(request).getEntity().getContent()) {
            return JSON.readTree(in).path("hits").path("hits");
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot sample documents of " + index + " shard " + shard + ": " + e.getMessage(), e);
        }
    }
}
