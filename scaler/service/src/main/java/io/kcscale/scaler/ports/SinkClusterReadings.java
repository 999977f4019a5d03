package io.kcscale.scaler.ports;

import java.util.Collection;

/**
 * Port: what the scaler reads of the cluster a sink writes to (Elasticsearch, OpenSearch): an index's counters and
 * layout, the cluster's write pressure. Every call has a timeout; a failure is an unchecked exception whose message
 * says what the cluster did.
 */
public interface SinkClusterReadings {

    /**
     * What a sampling round needs of many indexes, in a few requests whatever their number; an index that does not
     * exist fails alone.
     */
    Batch read(Collection<String> indexes);

    IndexStats indexStats(String index);

    /** Write requests rejected ever and queued now, summed over the nodes. */
    WritePressure writePressure();

    /** The answers of one {@link #read}, per index: a read throws when the answer it needs failed or lacks the index. */
    interface Batch {

        IndexStats indexStats(String index);

        IndexLayout indexLayout(String index);

        WritePressure writePressure();
    }

    /** {@code docsCount}: documents visible after the last refresh; {@code indexTotal}: index operations ever. */
    record IndexStats(String index, long docsCount, long indexTotal) {
    }

    record IndexLayout(int primaryShards, int replicas, int dataNodes) {
    }

    record WritePressure(long rejected, int queue) {
    }
}
