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

    /**
     * Index operations ever on the primary shards of every index the names cover (all of an alias's or a data stream's
     * indexes), so that the total keeps growing through a rollover; an index that does not exist counts nothing.
     */
    long indexTotal(Collection<String> names);

    /** Write requests rejected ever and queued now, summed over the nodes. */
    WritePressure writePressure();

    /** The answers of one {@link #read}, per index: a read throws when the answer it needs failed or lacks the index. */
    interface Batch {

        /** Where writes to {@code name} (an index, an alias or a data stream) land this round, or why that cannot be said. */
        WriteIndex writeIndex(String name);

        IndexStats indexStats(String index);

        IndexLayout indexLayout(String index);

        /** The cluster's data nodes. */
        int dataNodes();

        WritePressure writePressure();
    }

    /**
     * Where writes to a name land, or why it cannot be said.
     *
     * @param index   the write index, or null
     * @param problem one line saying what to change, or null
     */
    record WriteIndex(String index, String problem) {}

    /** {@code docsCount}: documents visible after the last refresh; {@code indexTotal}: index operations ever. */
    record IndexStats(String index, long docsCount, long indexTotal) {}

    /**
     * @param writeBlock the index block that refuses writes to it, as its setting is named
     *                   ({@code index.blocks.read_only_allow_delete}, {@code index.blocks.read_only} or
     *                   {@code index.blocks.write}); null when it takes writes
     * @param inactivePrimaries its primary shards not active (unassigned or still starting), which writes to them wait
     *                   for and then fail; null when the cluster is red and the index's own health was not read
     */
    record IndexLayout(int primaryShards, int replicas, int dataNodes, String writeBlock, Integer inactivePrimaries) {}

    record WritePressure(long rejected, int queue) {}
}
