package io.kcscale.scaler.elasticsearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kcscale.scaler.access.AccessProblem;
import io.kcscale.scaler.ports.SinkClusterReadings;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;

/** Reads what the scaler needs of the sink's index and the cluster that holds it. */
public final class ElasticsearchReadingsClient implements SinkClusterReadings {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The cluster health status in which some primary shard is not active. */
    private static final String RED = "red";

    private final ElasticsearchConnection connection;

    public ElasticsearchReadingsClient(ElasticsearchConnection connection) {
        this.connection = connection;
    }

    /** The index's primary shards and replicas, and the cluster's data nodes. */
    public IndexLayout indexLayout(String index) {
        JsonNode health = get("/_cluster/health", "cluster health");
        return layoutOf(
                index,
                get("/" + index + "/_settings", "settings of index " + index),
                health,
                indexHealth(List.of(index), health));
    }

    /**
     * @param indexHealth the indexes' own health ({@code _cluster/health/...?level=indices}), read only while the cluster
     *                    is red; null otherwise
     */
    static IndexLayout layoutOf(String index, JsonNode settingsByIndex, JsonNode health, JsonNode indexHealth) {
        JsonNode settings = settingsByIndex.path(index).path("settings").path("index");
        if (settings.isMissingNode()) {
            throw new ElasticsearchUnavailableException("index " + index + " has no settings", null);
        }
        return new IndexLayout(
                settings.path("number_of_shards").asInt(),
                settings.path("number_of_replicas").asInt(),
                health.path("number_of_data_nodes").asInt(),
                writeBlock(settings.path("blocks")),
                inactivePrimaries(index, health, indexHealth));
    }

    /**
     * An index's primaries that are not active: none while the cluster is not red (yellow and green mean every primary
     * is); while it is, the index's own health says; null when that was not read.
     */
    static Integer inactivePrimaries(String index, JsonNode health, JsonNode indexHealth) {
        if (!RED.equals(health.path("status").asText())) {
            return 0;
        }
        JsonNode own = indexHealth == null ? null : indexHealth.path("indices").path(index);
        if (own == null || !own.path("number_of_shards").isNumber()) {
            return null;
        }
        return Math.max(
                0,
                own.path("number_of_shards").asInt()
                        - own.path("active_primary_shards").asInt());
    }

    /**
     * The indexes' own health while the cluster is red, the one state in which some primary is not active, so a green or
     * yellow cluster costs no request; null otherwise.
     */
    private JsonNode indexHealth(Collection<String> indexes, JsonNode health) {
        if (!RED.equals(health.path("status").asText()) || indexes.isEmpty()) {
            return null;
        }
        return getEach(
                indexes,
                list -> {
                    Request request = new Request("GET", "/_cluster/health/" + list);
                    request.addParameter("level", "indices");
                    return request;
                },
                "health of " + NameLists.describe(indexes));
    }

    /**
     * The first of the blocks that refuse writes to be set on an index, its {@code settings.index.blocks} given;
     * Elasticsearch sets {@code read_only_allow_delete} itself on the indexes of a node whose disk passed the flood-stage
     * watermark ({@code cluster.routing.allocation.disk.watermark.flood_stage}). Settings read back as strings.
     */
    static String writeBlock(JsonNode blocks) {
        for (String block : List.of("read_only_allow_delete", "read_only", "write")) {
            if (blocks.path(block).asText().equalsIgnoreCase("true")) {
                return "index.blocks." + block;
            }
        }
        return null;
    }

    /**
     * What a sampling round needs of many indexes, aliases and data streams, in a few requests whatever their number:
     * their settings (an index that does not exist is left out, not a failure of the others), then each name resolved to
     * its write index (see {@link #resolve}), then their {@code _stats} (an alias or a data stream expands to its indexes,
     * so the write index's counter is in it), the cluster's health and the write thread pools. Resolved afresh each
     * round, so a rollover is followed at the next.
     */
    @Override
    public ElasticsearchBatchReading read(Collection<String> indexes) {
        String names = NameLists.describe(indexes);
        ElasticsearchBatchReading.Reply settings = ElasticsearchBatchReading.Reply.of(
                () -> getEach(indexes, list -> ignoringMissing("/" + list + "/_settings"), "settings of " + names));
        Map<String, WriteIndex> writeIndexes;
        ElasticsearchUnavailableException unresolved = null;
        try {
            writeIndexes = resolve(new TreeSet<>(indexes), settings.body());
        } catch (ElasticsearchUnavailableException e) {
            writeIndexes = Map.of();
            unresolved = e;
        }
        ElasticsearchBatchReading.Reply health =
                ElasticsearchBatchReading.Reply.of(() -> get("/_cluster/health", "cluster health"));
        List<String> resolved = writeIndexes.values().stream()
                .map(WriteIndex::index)
                .filter(i -> i != null)
                .distinct()
                .toList();
        return new ElasticsearchBatchReading(
                ElasticsearchBatchReading.Reply.of(() -> getEach(
                        indexes, list -> ignoringMissing("/" + list + "/_stats/docs,indexing"), "_stats of " + names)),
                settings,
                health,
                ElasticsearchBatchReading.Reply.of(() -> indexHealth(resolved, health.body())),
                ElasticsearchBatchReading.Reply.of(() -> get("/_nodes/stats/thread_pool", "thread pool stats")),
                writeIndexes,
                unresolved);
    }

    /**
     * Each name's write index: an index is its own; an alias's is the index it marks {@code is_write_index} (or its only
     * index); a data stream's is its newest backing index. A name that is none of these, or an alias of several indexes
     * none marked, gets a problem. Costs one request for the aliases and one for the data streams among the names that
     * are not indexes (one per few thousand characters of names); only when a data stream request names one that does
     * not exist, one request per such name, at most {@link #MAX_LOOKUPS_EACH} a round.
     *
     * @param settingsByIndex the names' {@code _settings}, which list the indexes that exist under their own names
     */
    Map<String, WriteIndex> resolve(Set<String> names, JsonNode settingsByIndex) {
        Map<String, WriteIndex> resolved = new TreeMap<>();
        Set<String> rest = new TreeSet<>();
        for (String name : names) {
            if (settingsByIndex.has(name)) {
                resolved.put(name, new WriteIndex(name, null));
            } else {
                rest.add(name);
            }
        }
        if (rest.isEmpty()) {
            return resolved;
        }
        JsonNode aliases =
                getEach(rest, list -> allowingMissing("/_alias/" + list), "aliases " + NameLists.describe(rest));
        for (String name : List.copyOf(rest)) {
            writeIndexOfAlias(name, aliases).ifPresent(w -> {
                resolved.put(name, w);
                rest.remove(name);
            });
        }
        if (rest.isEmpty()) {
            return resolved;
        }
        Map<String, String> newest = new TreeMap<>();
        int lookups = 0;
        for (String list : NameLists.split(rest, NameLists.MAX_PATH_NAMES)) {
            List<String> asked = List.of(list.split(","));
            Map<String, String> found = newestBackingIndexes(
                    get(allowingMissing("/_data_stream/" + list), "data streams " + NameLists.describe(asked)));
            if (found.isEmpty() && asked.size() > 1) {
                // the list failed on a name that is no data stream; ask for each, so that one missing name hides no
                // other
                for (String name : asked) {
                    if (lookups++ < MAX_LOOKUPS_EACH) {
                        found.putAll(newestBackingIndexes(
                                get(allowingMissing("/_data_stream/" + name), "data stream " + name)));
                    }
                }
            }
            newest.putAll(found);
        }
        for (String name : rest) {
            resolved.put(
                    name,
                    newest.containsKey(name)
                            ? new WriteIndex(newest.get(name), null)
                            : new WriteIndex(
                                    null,
                                    "no index, alias or data stream named " + name
                                            + " (yet): the sink has written nothing there, or --index or the"
                                            + " sink's config names the wrong one"));
        }
        return resolved;
    }

    /** The most names looked up one by one in a round. */
    static final int MAX_LOOKUPS_EACH = 32;

    /** The write index of alias {@code name} in a {@code GET _alias} answer: index → aliases → name → is_write_index. */
    static Optional<WriteIndex> writeIndexOfAlias(String name, JsonNode aliases) {
        List<String> members = new ArrayList<>();
        List<String> marked = new ArrayList<>();
        aliases.fields().forEachRemaining(index -> {
            JsonNode alias = index.getValue().path("aliases").path(name);
            if (!alias.isMissingNode()) {
                members.add(index.getKey());
                if (alias.path("is_write_index").asBoolean(false)) {
                    marked.add(index.getKey());
                }
            }
        });
        if (members.isEmpty()) {
            return Optional.empty();
        }
        if (marked.size() == 1) {
            return Optional.of(new WriteIndex(marked.get(0), null));
        }
        if (members.size() == 1) {
            return Optional.of(new WriteIndex(members.get(0), null));
        }
        Collections.sort(members);
        return Optional.of(new WriteIndex(
                null,
                "alias " + name + " has no write index: it points at " + members.size()
                        + " indexes " + members + " and marks none is_write_index, so writes to it fail; mark one"
                        + " (POST _aliases with is_write_index: true) or name the index with --index"));
    }

    /** Each data stream's newest backing index (the last listed) in a {@code GET _data_stream} answer. */
    static Map<String, String> newestBackingIndexes(JsonNode streams) {
        Map<String, String> newest = new TreeMap<>();
        for (JsonNode stream : streams.path("data_streams")) {
            JsonNode backing = stream.path("indices");
            if (backing.size() > 0) {
                newest.put(
                        stream.path("name").asText(),
                        backing.get(backing.size() - 1).path("index_name").asText());
            }
        }
        return newest;
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

    /**
     * Index operations ever on the primary shards of every index the names cover (all of an alias's or a data stream's
     * indexes), so that the total keeps growing through a rollover; an index that does not exist counts nothing.
     */
    @Override
    public long indexTotal(Collection<String> names) {
        long total = 0;
        for (JsonNode index : getEach(
                        names,
                        list -> ignoringMissing("/" + list + "/_stats/indexing"),
                        "_stats of " + NameLists.describe(names))
                .path("indices")) {
            total +=
                    index.path("primaries").path("indexing").path("index_total").asLong();
        }
        return total;
    }

    static IndexStats statsOf(String index, JsonNode stats) {
        JsonNode primaries = stats.path("indices").path(index).path("primaries");
        if (primaries.isMissingNode()) {
            throw new ElasticsearchUnavailableException("index " + index + " has no statistics", null);
        }
        return new IndexStats(
                index,
                primaries.path("docs").path("count").asLong(),
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

    /**
     * One GET per few thousand characters of names, their answers merged (see {@link NameLists#merge}); a request that
     * fails fails the reading, so no partial answer passes for a whole one.
     */
    private JsonNode getEach(Collection<String> names, Function<String, Request> request, String what) {
        ObjectNode merged = JSON.createObjectNode();
        for (String list : NameLists.split(names, NameLists.MAX_PATH_NAMES)) {
            JsonNode answer = get(request.apply(list), what);
            if (answer != null) {
                NameLists.merge(merged, answer);
            }
        }
        return merged;
    }

    /**
     * A GET whose 404 is an answer: the body of {@code _alias} or {@code _data_stream} naming one that does not exist (it
     * still lists those that do); no JSON body reads as an empty object.
     */
    private static Request allowingMissing(String path) {
        Request request = new Request("GET", path);
        // 400 and 405 too: a cluster without data streams (Elasticsearch 7's OSS build) has no _data_stream endpoint
        request.addParameter("ignore", "400,404,405");
        return request;
    }

    /** A GET through the low-level client: typed 8.x responses for these calls do not parse against 7.17. */
    private JsonNode get(Request request, String what) {
        try {
            Response response = connection.restClient().performRequest(request);
            if (response.getEntity() == null) {
                return JSON.createObjectNode();
            }
            try (InputStream body = response.getEntity().getContent()) {
                JsonNode answer = JSON.readTree(body);
                return answer == null || answer.isMissingNode() ? JSON.createObjectNode() : answer;
            }
        } catch (IOException e) {
            int status = e instanceof ResponseException r
                    ? r.getResponse().getStatusLine().getStatusCode()
                    : -1;
            throw new ElasticsearchUnavailableException(
                    AccessProblem.elasticsearch(connection.url(), status, e)
                            .orElse("cannot read " + what + ": " + e.getMessage()),
                    e);
        }
    }
}
