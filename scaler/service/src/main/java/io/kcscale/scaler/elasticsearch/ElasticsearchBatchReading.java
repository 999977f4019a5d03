package io.kcscale.scaler.elasticsearch;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.ports.SinkClusterReadings;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The answers {@link ElasticsearchReadingsClient#read} got for many indexes at once, read per index: a read
 * throws {@link ElasticsearchUnavailableException} when the answer it needs failed or lacks the index.
 */
public final class ElasticsearchBatchReading implements SinkClusterReadings.Batch {

    private final Reply stats;
    private final Reply settings;
    private final Reply health;
    private final Reply indexHealth;
    private final Reply threadPools;
    private final Map<String, SinkClusterReadings.WriteIndex> writeIndexes;
    private final ElasticsearchUnavailableException unresolved;

    ElasticsearchBatchReading(
            Reply stats,
            Reply settings,
            Reply health,
            Reply indexHealth,
            Reply threadPools,
            Map<String, SinkClusterReadings.WriteIndex> writeIndexes,
            ElasticsearchUnavailableException unresolved) {
        this.stats = stats;
        this.settings = settings;
        this.health = health;
        this.indexHealth = indexHealth;
        this.threadPools = threadPools;
        this.writeIndexes = Map.copyOf(writeIndexes);
        this.unresolved = unresolved;
    }

    @Override
    public SinkClusterReadings.WriteIndex writeIndex(String name) {
        if (unresolved != null) {
            throw unresolved;
        }
        SinkClusterReadings.WriteIndex w = writeIndexes.get(name);
        if (w == null) {
            throw new ElasticsearchUnavailableException("index " + name + " was not asked for this round", null);
        }
        return w;
    }

    @Override
    public SinkClusterReadings.IndexStats indexStats(String index) {
        return ElasticsearchReadingsClient.statsOf(index, stats.body());
    }

    @Override
    public SinkClusterReadings.IndexLayout indexLayout(String index) {
        return ElasticsearchReadingsClient.layoutOf(index, settings.body(), health.body(), indexHealth.body());
    }

    /** The cluster's data nodes. */
    @Override
    public int dataNodes() {
        return health.body().path("number_of_data_nodes").asInt();
    }

    @Override
    public SinkClusterReadings.WritePressure writePressure() {
        return ElasticsearchReadingsClient.pressureOf(threadPools.body());
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
