package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code index-shards}: the primary shards of each index the sink writes to (an alias's or a data stream's write
 * index) against the cluster's data nodes and the sink's tasks. Indexing into one primary shard runs on one node
 * however many tasks send; fewer primaries than data nodes leaves nodes without indexing work. Shards are fixed at
 * creation, so the advice spells out the three ways to change them as requests to paste into Kibana's console.
 */
public final class IndexShardsCheck implements Check {

    public static final String ID = "index-shards";
    /** One primary shard with this many tasks or more is a warning. */
    static final int TASKS_PER_SINGLE_SHARD = 3;
    /** Shards to suggest at least, when one shard is too few: the field report's fix went 1 → 3. */
    static final int SUGGESTED_MINIMUM = 3;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.CONNECTORS);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        PipelineSnapshot.Elasticsearch es = snapshot.elasticsearch();
        int tasks = samples.tasksWanted();
        List<PipelineSnapshot.Index> indexes = es == null ? List.of() : es.indexes();
        if (indexes.isEmpty()) {
            Evidence e = new Evidence();
            String connectorClass =
                    samples.sinkConfig() == null ? null : samples.sinkConfig().get("connector.class");
            e.put("connectorClass", connectorClass);
            return finding(
                    Severity.NOT_APPLICABLE,
                    "not applicable: the sink writes to no Elasticsearch index that its config " + "names"
                            + (connectorClass == null ? "" : " (" + connectorClass + ")")
                            + ", so there are no shards to judge",
                    e,
                    "If it does write to an index, name it: serve --index " + snapshot.name() + "=INDEX (index."
                            + snapshot.name() + "=INDEX in the settings file).");
        }
        boolean several = indexes.size() > 1;
        List<Evidence> judged = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        for (PipelineSnapshot.Index index : indexes) {
            Evidence e = new Evidence().put("index", index.name());
            if (!index.name().equals(index.writeIndex())) {
                e.put("writeIndex", index.writeIndex());
            }
            judged.add(e);
            if (index.primaryShards() == null || es.dataNodes() == null) {
                unknown.add("the shards of index " + named(index) + " are unknown ("
                        + (index.problem() == null ? "Elasticsearch did not answer" : index.problem()) + ")");
                continue;
            }
            int shards = index.primaryShards();
            int nodes = es.dataNodes();
            e.put("primaryShards", shards)
                    .put("replicas", index.replicas())
                    .put("dataNodes", nodes)
                    .put("tasks", tasks);
            List<String> own = new ArrayList<>();
            if (shards == 1 && tasks >= TASKS_PER_SINGLE_SHARD) {
                own.add("1 primary shard for " + tasks
                        + " tasks: indexing runs on one node's shard whatever the task count");
            }
            if (shards < nodes) {
                own.add(shards + " primary shard(s) on " + nodes + " data nodes: " + (nodes - shards)
                        + " node(s) index nothing");
            }
            if (!own.isEmpty()) {
                int target = Math.max(nodes, Math.max(SUGGESTED_MINIMUM, shards + 1));
                int split = splitTarget(shards, target);
                e.put("suggestedShards", target).put("splitShards", split);
                boolean named = several || !index.name().equals(index.writeIndex());
                problems.add((named ? "index " + named(index) + ": " : "") + String.join("; ", own));
                fixes.add((several ? "For index " + named(index) + ":\n" : "")
                        + fix(index.writeIndex(), target, split, index.replicas() == null ? 1 : index.replicas()));
            }
        }
        Evidence evidence = several
                ? new Evidence()
                        .put("indexes", judged.stream().map(Evidence::map).toList())
                        .put("dataNodes", es.dataNodes())
                        .put("tasks", tasks)
                : judged.get(0);
        if (!problems.isEmpty()) {
            return finding(Severity.WARNING, String.join("; ", problems), evidence, String.join("\n", fixes));
        }
        if (!unknown.isEmpty()) {
            return finding(
                    Severity.INFO,
                    String.join("; ", unknown),
                    evidence,
                    "Run the check again when Elasticsearch answers"
                            + (indexes.stream().anyMatch(i -> i.problem() != null)
                                    ? " and the index can be read."
                                    : "."));
        }
        PipelineSnapshot.Index first = indexes.get(0);
        String title = several
                ? indexes.size() + " indexes, each with enough primary shards for " + tasks + " tasks on "
                        + es.dataNodes() + " data node(s)"
                : first.primaryShards() + " primary shard(s) for " + tasks + " tasks on " + es.dataNodes()
                        + " data node(s)";
        return finding(
                Severity.OK,
                title,
                evidence,
                "For more tasks later: indices take their shard count at creation; an index template sets it for new ones.");
    }

    /** The index as the sink names it, with the write index it resolves to when that is another. */
    private static String named(PipelineSnapshot.Index index) {
        return index.writeIndex() == null || index.name().equals(index.writeIndex())
                ? index.name()
                : index.name() + " (write index " + index.writeIndex() + ")";
    }

    /**
     * {@code _split} multiplies the shards by a factor the index's routing shards allow: a 7.x index
     * without {@code number_of_routing_shards} splits by factors of 2, so the next power-of-2 multiple.
     */
    static int splitTarget(int shards, int atLeast) {
        int split = shards * 2;
        while (split < atLeast) {
            split *= 2;
        }
        return split;
    }

    private static String fix(String index, int shards, int split, int replicas) {
        String settings = "{\"number_of_shards\": " + shards + ", \"number_of_replicas\": " + replicas + "}";
        return "Shards are fixed when an index is created. Pick one:\n"
                + "1. New indices, via an index template (takes effect at the next index created):\n"
                + "PUT _index_template/" + index + "-shards\n"
                + "{\"index_patterns\": [\"" + index + "-*\"], \"template\": {\"settings\": " + settings + "}}\n"
                + "2. A new index behind an alias (pause the sink first, resume it after):\n"
                + "PUT " + index + "-v2\n"
                + "{\"settings\": " + settings + "}\n"
                + "POST _reindex\n"
                + "{\"source\": {\"index\": \"" + index + "\"}, \"dest\": {\"index\": \"" + index + "-v2\"}}\n"
                + "POST _aliases\n"
                + "{\"actions\": [{\"remove_index\": {\"index\": \"" + index + "\"}}, {\"add\": {\"index\": \"" + index
                + "-v2\", \"alias\": \"" + index + "\"}}]}\n"
                + "3. _split in place into " + split + " shards (a factor of 2 for an index made without "
                + "number_of_routing_shards; pause the sink, the source index must be read-only):\n"
                + "PUT " + index + "/_settings\n"
                + "{\"settings\": {\"index.blocks.write\": true}}\n"
                + "POST " + index + "/_split/" + index + "-split\n"
                + "{\"settings\": {\"index.number_of_shards\": " + split + ", \"index.blocks.write\": null}}\n"
                + "then point the sink (or an alias) at " + index + "-split.";
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
