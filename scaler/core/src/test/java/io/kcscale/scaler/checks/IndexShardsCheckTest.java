package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IndexShardsCheckTest {

    private static final IndexShardsCheck CHECK = new IndexShardsCheck();

    private static Finding layout(int shards, int nodes, int tasks) {
        Fixture f = new Fixture();
        f.primaryShards = shards;
        f.dataNodes = nodes;
        f.tasksWanted = tasks;
        return f.run(CHECK);
    }

    @ParameterizedTest(name = "{0} shards, {1} data nodes, {2} tasks: {3}")
    @CsvSource({"1, 1, 3, WARNING", "1, 1, 2, OK", "3, 1, 3, OK", "3, 1, 12, OK", "2, 3, 1, WARNING", "3, 3, 5, OK"})
    void oneShardWithThreeTasksOrFewerPrimariesThanNodesWarns(int shards, int nodes, int tasks, Severity expected) {
        Finding f = layout(shards, nodes, tasks);
        assertEquals(expected, f.severity(), f.title());
        assertEquals(shards, f.evidence().get("primaryShards"));
        assertEquals(nodes, f.evidence().get("dataNodes"));
        assertEquals(tasks, f.evidence().get("tasks"));
    }

    @Test
    void theFixIsThreeWaysAsRequestsWhoseBodiesParse() throws Exception {
        Finding f = layout(1, 1, 3);
        assertEquals(3, f.evidence().get("suggestedShards"));
        assertEquals(4, f.evidence().get("splitShards"));
        assertTrue(f.title().startsWith("1 primary shard for 3 tasks"), f.title());
        List<String> lines = f.advice().lines().toList();
        for (String request : List.of(
                "PUT _index_template/idx-shards",
                "PUT idx-v2",
                "POST _reindex",
                "POST _aliases",
                "PUT idx/_settings",
                "POST idx/_split/idx-split")) {
            int at = lines.indexOf(request);
            assertTrue(at >= 0, request + " missing from:\n" + f.advice());
            new ObjectMapper().readTree(lines.get(at + 1)); // the body under each request is JSON to paste
        }
        assertTrue(f.advice().contains("\"number_of_shards\": 3"), f.advice());
        assertTrue(f.advice().contains("\"index.number_of_shards\": 4"), f.advice());
    }

    @Test
    void fewerPrimariesThanNodesSuggestsOneShardPerNode() {
        Finding f = layout(2, 5, 2);
        assertEquals(5, f.evidence().get("suggestedShards"));
        assertEquals(8, f.evidence().get("splitShards"));
        assertTrue(f.title().contains("3 node(s) index nothing"), f.title());
    }

    @Test
    void splitsGoByFactorsOfTwo() {
        assertEquals(2, IndexShardsCheck.splitTarget(1, 2));
        assertEquals(4, IndexShardsCheck.splitTarget(1, 3));
        assertEquals(4, IndexShardsCheck.splitTarget(2, 3));
        assertEquals(6, IndexShardsCheck.splitTarget(3, 5));
    }

    @Test
    void shardsElasticsearchDidNotReportAreInfo() {
        Fixture f = new Fixture();
        f.primaryShards = null;
        assertEquals(Severity.INFO, f.run(CHECK).severity());
    }

    @Test
    void aSinkWithoutAnIndexIsNotApplicableAndSaysHowToNameOne() {
        Fixture f = new Fixture();
        f.index = null;
        f.sinkConfig =
                Map.of("connector.class", "org.apache.kafka.connect.file.FileStreamSinkConnector", "topics", "t");
        Finding finding = f.run(CHECK);
        assertEquals(Severity.NOT_APPLICABLE, finding.severity());
        assertTrue(finding.title().startsWith("not applicable: "), finding.title());
        assertTrue(finding.title().contains("FileStreamSinkConnector"), finding.title());
        assertTrue(finding.advice().contains("--index sink=INDEX"), finding.advice());
    }

    @Test
    void eachIndexOfASinkIsJudgedAndTheFindingNamesTheOnesShortOfShards() {
        Fixture f = new Fixture();
        f.tasksWanted = 3;
        f.indexes = List.of(
                new PipelineSnapshot.Index("orders", "orders", 3, 1, null, null, null, null),
                new PipelineSnapshot.Index("logs", "logs-000002", 1, 1, null, null, null, null));
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertTrue(
                finding.title().startsWith("index logs (write index logs-000002): 1 primary shard for 3 tasks"),
                finding.title());
        assertTrue(!finding.title().contains("orders"), finding.title());
        assertTrue(finding.advice().contains("POST logs-000002/_split/logs-000002-split"), finding.advice());
        List<?> judged = (List<?>) finding.evidence().get("indexes");
        assertEquals(
                Map.of(
                        "index",
                        "logs",
                        "writeIndex",
                        "logs-000002",
                        "primaryShards",
                        1,
                        "replicas",
                        1,
                        "dataNodes",
                        1,
                        "tasks",
                        3,
                        "suggestedShards",
                        3,
                        "splitShards",
                        4),
                judged.get(1));
    }

    @Test
    void severalIndexesWithEnoughShardsAreOkAndOneUnreadableIsInfoNamingWhy() {
        Fixture f = new Fixture();
        f.indexes = List.of(
                new PipelineSnapshot.Index("a", "a", 3, 0, null, null, null, null),
                new PipelineSnapshot.Index("b", "b", 3, 0, null, null, null, null));
        Finding ok = f.run(CHECK);
        assertEquals(Severity.OK, ok.severity(), ok.title());
        assertTrue(ok.title().startsWith("2 indexes"), ok.title());
        f.indexes = List.of(
                new PipelineSnapshot.Index("a", "a", 3, 0, null, null, null, null),
                new PipelineSnapshot.Index(
                        "logs",
                        null,
                        null,
                        null,
                        null,
                        "alias logs has no write index: it points at 2 indexes [logs-1, logs-2] and marks none is_write_index",
                        null,
                        null));
        Finding info = f.run(CHECK);
        assertEquals(Severity.INFO, info.severity());
        assertTrue(
                info.title().contains("the shards of index logs are unknown (alias logs has no write index"),
                info.title());
    }
}
