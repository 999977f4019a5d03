package io.kcscale.scaler.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.scaler.ports.SinkClusterReadings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The observer's parsing of the four answers it reads, in Elasticsearch 7.17's shape and OpenSearch 2.19's (the
 * fields a 2.19.4 node sent; the figures chosen): OpenSearch adds fields (the settings' {@code replication},
 * the health's {@code discovered_cluster_manager}, more thread pools) and renames none of those read.
 */
class ElasticsearchReadingsClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String ELASTICSEARCH_SETTINGS = """
            {"sink":{"settings":{"index":{"routing":{"allocation":{"include":{"_tier_preference":"data_content"}}},
             "number_of_shards":"3","provided_name":"sink","creation_date":"1795753525912","number_of_replicas":"1",
             "uuid":"Qx1t0m2ZRbq1mJ8l9Yw7Ag","version":{"created":"7172999"}}}}}""";
    private static final String OPENSEARCH_SETTINGS = """
            {"sink":{"settings":{"index":{"replication":{"type":"DOCUMENT"},"number_of_shards":"3","provided_name":"sink",
             "creation_date":"1795753525912","number_of_replicas":"1","uuid":"YRiJGN14RCKO7Ypqy-12bw","version":{"created":"136408227"}}}}}""";
    private static final String ELASTICSEARCH_HEALTH = """
            {"cluster_name":"kcscale","status":"yellow","timed_out":false,"number_of_nodes":2,"number_of_data_nodes":2,
             "active_primary_shards":3,"active_shards":3,"relocating_shards":0,"initializing_shards":0,"unassigned_shards":3,
             "delayed_unassigned_shards":0,"number_of_pending_tasks":0,"number_of_in_flight_fetch":0,
             "task_max_waiting_in_queue_millis":0,"active_shards_percent_as_number":50.0}""";
    private static final String OPENSEARCH_HEALTH = """
            {"cluster_name":"kcscale","status":"yellow","timed_out":false,"number_of_nodes":2,"number_of_data_nodes":2,
             "discovered_master":true,"discovered_cluster_manager":true,"active_primary_shards":3,"active_shards":3,
             "relocating_shards":0,"initializing_shards":0,"unassigned_shards":3,"delayed_unassigned_shards":0,
             "number_of_pending_tasks":0,"number_of_in_flight_fetch":0,"task_max_waiting_in_queue_millis":0,
             "active_shards_percent_as_number":50.0}""";
    private static final String ELASTICSEARCH_STATS = """
            {"_shards":{"total":3,"successful":3,"failed":0},"_all":{},"indices":{"sink":{"uuid":"Qx1t0m2ZRbq1mJ8l9Yw7Ag",
             "primaries":{"docs":{"count":480,"deleted":0},"indexing":{"index_total":500,"index_time_in_millis":90,
             "index_current":0,"index_failed":0,"delete_total":0,"delete_time_in_millis":0,"delete_current":0,
             "noop_update_total":0,"is_throttled":false,"throttle_time_in_millis":0}},"total":{}}}}""";
    private static final String OPENSEARCH_STATS = """
            {"_shards":{"total":3,"successful":3,"failed":0},"_all":{},"indices":{"sink":{"uuid":"YRiJGN14RCKO7Ypqy-12bw",
             "primaries":{"docs":{"count":480,"deleted":0},"indexing":{"index_total":500,"index_time_in_millis":7,
             "index_current":0,"index_failed":0,"delete_total":0,"delete_time_in_millis":0,"delete_current":0,
             "noop_update_total":0,"is_throttled":false,"throttle_time_in_millis":0,"doc_status":{}}},"total":{}}}}""";
    private static final String ELASTICSEARCH_THREAD_POOLS = """
            {"_nodes":{"total":2,"successful":2,"failed":0},"cluster_name":"kcscale","nodes":{
             "a":{"name":"es-0","thread_pool":{"search":{"threads":1,"queue":0,"active":0,"rejected":7,"largest":1,"completed":9},
              "system_write":{"threads":1,"queue":5,"active":0,"rejected":2,"largest":1,"completed":3},
              "write":{"threads":2,"queue":3,"active":2,"rejected":11,"largest":2,"completed":500}}},
             "b":{"name":"es-1","thread_pool":{"write":{"threads":2,"queue":1,"active":0,"rejected":4,"largest":2,"completed":80}}}}}""";
    private static final String OPENSEARCH_THREAD_POOLS = """
            {"_nodes":{"total":2,"successful":2,"failed":0},"cluster_name":"kcscale","nodes":{
             "a":{"name":"os-0","thread_pool":{"search":{"threads":1,"queue":0,"active":0,"rejected":7,"largest":1,"completed":9},
              "system_write":{"threads":1,"queue":5,"active":0,"rejected":2,"largest":1,"completed":3},
              "translog_sync":{"threads":0,"queue":0,"active":0,"rejected":0,"largest":0,"completed":0},
              "write":{"threads":2,"queue":3,"active":2,"rejected":11,"largest":2,"completed":500}}},
             "b":{"name":"os-1","thread_pool":{"remote_refresh_retry":{"threads":0,"queue":9,"active":0,"rejected":9,"largest":0,"completed":0},
              "write":{"threads":2,"queue":1,"active":0,"rejected":4,"largest":2,"completed":80}}}}}""";

    @Test
    void readsTheLayoutFromEitherProduct() throws Exception {
        ElasticsearchReadingsClient.IndexLayout expected =
                new ElasticsearchReadingsClient.IndexLayout(3, 1, 2, null, 0);
        assertEquals(
                expected,
                ElasticsearchReadingsClient.layoutOf(
                        "sink", json(ELASTICSEARCH_SETTINGS), json(ELASTICSEARCH_HEALTH), null));
        assertEquals(
                expected,
                ElasticsearchReadingsClient.layoutOf("sink", json(OPENSEARCH_SETTINGS), json(OPENSEARCH_HEALTH), null));
    }

    @Test
    void readsTheBlockThatRefusesWritesFirstAmongSeveral() throws Exception {
        String[][] cases = {
            {"{}", null},
            {"{\"read\":\"true\"}", null},
            {"{\"write\":\"false\"}", null},
            {"{\"write\":\"true\"}", "index.blocks.write"},
            {"{\"read_only\":\"true\",\"write\":\"true\"}", "index.blocks.read_only"},
            {"{\"read_only_allow_delete\":\"true\",\"write\":\"true\"}", "index.blocks.read_only_allow_delete"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], ElasticsearchReadingsClient.writeBlock(json(c[0])), c[0]);
        }
        String settings = "{\"sink\":{\"settings\":{\"index\":{\"number_of_shards\":\"1\","
                + "\"number_of_replicas\":\"0\",\"blocks\":{\"write\":\"true\"}}}}}";
        assertEquals(
                "index.blocks.write",
                ElasticsearchReadingsClient.layoutOf("sink", json(settings), json(ELASTICSEARCH_HEALTH), null)
                        .writeBlock());
    }

    @Test
    void countsAnIndexsInactivePrimariesOnlyWhereTheClusterIsRed() throws Exception {
        String red = "{\"status\":\"red\",\"number_of_data_nodes\":1}";
        String own = "{\"indices\":{\"sink\":{\"status\":\"red\",\"number_of_shards\":3,"
                + "\"active_primary_shards\":1},\"other\":{\"status\":\"green\",\"number_of_shards\":1,"
                + "\"active_primary_shards\":1}}}";
        assertEquals(2, ElasticsearchReadingsClient.inactivePrimaries("sink", json(red), json(own)));
        assertEquals(0, ElasticsearchReadingsClient.inactivePrimaries("other", json(red), json(own)));
        assertEquals(null, ElasticsearchReadingsClient.inactivePrimaries("sink", json(red), null), "not read");
        assertEquals(
                0,
                ElasticsearchReadingsClient.inactivePrimaries("sink", json("{\"status\":\"yellow\"}"), null),
                "yellow: every primary is active");
    }

    @Test
    void readsThePrimariesCountersFromEitherProduct() throws Exception {
        ElasticsearchReadingsClient.IndexStats expected = new ElasticsearchReadingsClient.IndexStats("sink", 480, 500);
        assertEquals(expected, ElasticsearchReadingsClient.statsOf("sink", json(ELASTICSEARCH_STATS)));
        assertEquals(expected, ElasticsearchReadingsClient.statsOf("sink", json(OPENSEARCH_STATS)));
        assertThrows(
                ElasticsearchUnavailableException.class,
                () -> ElasticsearchReadingsClient.statsOf("other", json(OPENSEARCH_STATS)));
    }

    /** Only the write pools count: OpenSearch's extra pools, and system_write, are left out as Elasticsearch's are. */
    @Test
    void sumsTheWritePoolsOfEitherProduct() throws Exception {
        ElasticsearchReadingsClient.WritePressure expected = new ElasticsearchReadingsClient.WritePressure(15, 4);
        assertEquals(expected, ElasticsearchReadingsClient.pressureOf(json(ELASTICSEARCH_THREAD_POOLS)));
        assertEquals(expected, ElasticsearchReadingsClient.pressureOf(json(OPENSEARCH_THREAD_POOLS)));
    }

    /** A {@code GET _alias/logs,other} that found logs and not other: a 404 whose body still lists what was found. */
    @Test
    void anAliasResolvesToTheIndexItMarksOrItsOnlyIndexAndOtherwiseSaysWhy() throws Exception {
        JsonNode answer = json("""
                {"error":"alias [other] missing","status":404,
                 "logs-000001":{"aliases":{"logs":{"is_write_index":false}}},
                 "logs-000002":{"aliases":{"logs":{"is_write_index":true}}},
                 "solo-1":{"aliases":{"solo":{}}},
                 "two-b":{"aliases":{"two":{}}},"two-a":{"aliases":{"two":{}}}}""");
        assertEquals(
                Optional.of(new SinkClusterReadings.WriteIndex("logs-000002", null)),
                ElasticsearchReadingsClient.writeIndexOfAlias("logs", answer));
        assertEquals(
                Optional.of(new SinkClusterReadings.WriteIndex("solo-1", null)),
                ElasticsearchReadingsClient.writeIndexOfAlias("solo", answer));
        assertEquals(Optional.empty(), ElasticsearchReadingsClient.writeIndexOfAlias("other", answer));
        SinkClusterReadings.WriteIndex two =
                ElasticsearchReadingsClient.writeIndexOfAlias("two", answer).orElseThrow();
        assertEquals(null, two.index());
        assertTrue(
                two.problem()
                        .startsWith(
                                "alias two has no write index: it points at 2 indexes [two-a, two-b] and marks none"),
                two.problem());
    }

    @Test
    void aDataStreamsWriteIndexIsItsNewestBackingIndex() throws Exception {
        assertEquals(
                Map.of("logs-shop-a", ".ds-logs-shop-a-000002"),
                ElasticsearchReadingsClient.newestBackingIndexes(json("""
                {"data_streams":[{"name":"logs-shop-a","timestamp_field":{"name":"@timestamp"},
                 "indices":[{"index_name":".ds-logs-shop-a-000001","index_uuid":"x"},{"index_name":".ds-logs-shop-a-000002","index_uuid":"y"}],
                 "generation":2,"status":"GREEN","template":"logs-shop"}]}""")));
        assertEquals(Map.of(), ElasticsearchReadingsClient.newestBackingIndexes(json("""
                {"error":{"type":"index_not_found_exception","reason":"no such index [logs-shop-b]"},"status":404}""")));
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }
}
