package io.kcscale.scaler.ports;

import io.kcscale.scaler.elasticsearch.ElasticsearchUnavailableException;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The sink's cluster held in memory: indexes with their counters and layout; {@link #down} fails every call. */
public final class InMemorySinkCluster implements SinkClusterReadings {

    public final Map<String, IndexStats> stats = new ConcurrentHashMap<>();
    public final Map<String, IndexLayout> layouts = new ConcurrentHashMap<>();
    public volatile WritePressure pressure = new WritePressure(0, 0);
    public final AtomicInteger reads = new AtomicInteger();
    /** When set, every call throws it. */
    public volatile RuntimeException down;

    /** An index of one primary shard and no replica on one data node, with {@code indexTotal} index operations so far. */
    public InMemorySinkCluster index(String index, long indexTotal) {
        stats.put(index, new IndexStats(index, indexTotal, indexTotal));
        layouts.putIfAbsent(index, new IndexLayout(1, 0, 1, null, 0));
        return this;
    }

    @Override
    public Batch read(Collection<String> indexes) {
        failIfDown();
        reads.incrementAndGet();
        Set<String> asked = new TreeSet<>(indexes);
        return new Batch() {
            @Override
            public IndexStats indexStats(String index) {
                return asked.contains(index) ? InMemorySinkCluster.this.indexStats(index) : missing(index);
            }

            @Override
            public IndexLayout indexLayout(String index) {
                IndexLayout layout = asked.contains(index) ? layouts.get(index) : null;
                return layout != null ? layout : missing(index);
            }

            @Override
            public WriteIndex writeIndex(String name) {
                // a name is its own write index here: no aliases or data streams in memory
                return layouts.containsKey(name)
                        ? new WriteIndex(name, null)
                        : new WriteIndex(null, "no index named " + name);
            }

            @Override
            public int dataNodes() {
                return 1;
            }

            @Override
            public WritePressure writePressure() {
                return pressure;
            }
        };
    }

    @Override
    public IndexStats indexStats(String index) {
        failIfDown();
        IndexStats s = stats.get(index);
        return s != null ? s : missing(index);
    }

    @Override
    public long indexTotal(Collection<String> names) {
        failIfDown();
        return names.stream()
                .map(stats::get)
                .filter(java.util.Objects::nonNull)
                .mapToLong(IndexStats::indexTotal)
                .sum();
    }

    @Override
    public WritePressure writePressure() {
        failIfDown();
        return pressure;
    }

    private static <T> T missing(String index) {
        throw new ElasticsearchUnavailableException("index " + index + " has no statistics", null);
    }

    private void failIfDown() {
        RuntimeException e = down;
        if (e != null) {
            throw e;
        }
    }
}
