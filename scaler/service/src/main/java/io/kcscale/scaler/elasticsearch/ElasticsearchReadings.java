package io.kcscale.scaler.elasticsearch;

import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The answers {@link ElasticsearchObserver#read} got for many indexes at once, read per index: a read
 * throws {@link ElasticsearchUnavailableException} when the answer it needs failed or lacks the index.
 */
public final class ElasticsearchReadings {

    private final Reply stats;
    private final Reply settings;
    private final Reply health;
    private final Reply threadPools;
    private final Map<String, ElasticsearchObserver.WriteIndex> writeIndexes;
    private final ElasticsearchUnavailableException unresolved;

    ElasticsearchReadings(Reply stats, Reply settings, Reply health, Reply threadPools,
                          Map<String, ElasticsearchObserver.WriteIndex> writeIndexes, ElasticsearchUnavailableException unresolved) {
        this.stats = stats;
        this.settings = settings;
        this.health = health;
        this.threadPools = threadPools;
        this.writeIndexes = Map.copyOf(writeIndexes);
        this.unresolved = unresolved;
    }

    /** Where writes to {@code name} (an index, an alias or a data stream) land this round, or why that cannot be said. */
    public ElasticsearchObserver.WriteIndex writeIndex(String name) {
        if (unresolved != null) {
            throw unresolved;
        }
        ElasticsearchObserver.WriteIndex w = writeIndexes.get(name);
        if (w == null) {
            throw new ElasticsearchUnavailableException("index " + name + " was not asked for this round", null);
        }
        return w;
    }

    public ElasticsearchObserver.IndexStats indexStats(String index) {
        return ElasticsearchObserver.statsOf(index, stats.body());
    }

    public ElasticsearchObserver.IndexLayout indexLayout(String index) {
        return ElasticsearchObserver.layoutOf(index, settings.body(), health.body());
    }

    /** The cluster's data nodes. */
    public int dataNodes() {
        return health.body().path("number_of_data_nodes").asInt();
    }

    public ElasticsearchObserver.WritePressure writePressure() {
        return ElasticsearchObserver.pressureOf(threadPools.body());
    }

    /** One request's answer, or why there is none: asked once, read by every index. */
    record Reply(JsonNode answer, ElasticsearchUnavailableException error) {

        static Reply of(Supplier<JsonNode> request) {
            try {
                return new Reply(request.get(), null);
            } catch (ElasticsearchUnavailableException e) {
                return new Reply(null, e);
            }
        }

        JsonNode body() {
            if (error != null) {
                throw error;
            }
            return answer;
        }
    }
}
