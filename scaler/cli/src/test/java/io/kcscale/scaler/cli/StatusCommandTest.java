package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.Json;
import org.junit.jupiter.api.Test;

class StatusCommandTest {

    private static JsonNode read(String json) throws Exception {
        return Json.MAPPER.readTree(json);
    }

    @Test
    void aSinkOfSeveralTopicsListsEachTopicsPartitionsAndEachTasksPartitionsByTopic() throws Exception {
        String table = StatusCommand.table(read("""
                {"name": "logs", "topics": ["logs-a", "logs-b"], "tasksMax": 2, "partitions": 5,
                 "partitionsPerTopic": {"logs-a": 2, "logs-b": 3},
                 "tasks": [{"id": 0, "state": "RUNNING", "workerId": "w:8083", "partitionsByTopic": {"logs-a": [0], "logs-b": [0, 1]}},
                           {"id": 1, "state": "RUNNING", "workerId": "w:8083", "partitionsByTopic": {"logs-a": [1], "logs-b": [2]}}],
                 "stable": true}"""));
        assertTrue(table.contains("partitions 5 (logs-a 2, logs-b 3)  stable"), table);
        assertTrue(table.contains("logs-a:0 logs-b:0,1"), table);
        assertTrue(table.contains("logs-a:1 logs-b:2"), table);
    }

    @Test
    void aSinkOfOneTopicReadsAsBefore() throws Exception {
        String table = StatusCommand.table(read("""
                {"name": "s", "topics": ["t"], "tasksMax": 1, "partitions": 3, "partitionsPerTopic": {"t": 3},
                 "tasks": [{"id": 0, "state": "RUNNING", "workerId": "w:8083", "partitions": [0, 1, 2],
                            "partitionsByTopic": {"t": [0, 1, 2]}}], "stable": true}"""));
        assertTrue(table.contains("tasks 1/1 RUNNING (tasks.max 1)  partitions 3  stable"), table);
        assertTrue(table.contains(" 0,1,2"), table);
    }

    @Test
    void aSinkOfOneIndexReadsAsBeforeAndNamesAnAliassWriteIndex() throws Exception {
        String table = StatusCommand.table(read("""
                {"name": "s", "topics": ["t"], "tasks": [], "stable": true, "rates": {"indexPerSecond": 12.5},
                 "elasticsearch": {"index": "logs", "primaryShards": 3, "replicas": 1, "dataNodes": 2,
                                   "indexes": [{"name": "logs", "writeIndex": "logs-000002", "primaryShards": 3, "replicas": 1,
                                                "indexPerSecond": 12.5}]}}"""));
        assertTrue(table.contains("index 12.5"), table);
        assertTrue(
                table.contains("index logs (write index logs-000002)  primary shards 3  replicas 1  data nodes 2"),
                table);
    }

    @Test
    void aSinkOfSeveralIndexesListsEachWithItsWriteIndexShardsRateAndProblem() throws Exception {
        String table = StatusCommand.table(read("""
                {"name": "s", "topics": ["a", "b"], "tasks": [], "stable": true,
                 "elasticsearch": {"dataNodes": 1, "indexes": [
                     {"name": "a", "writeIndex": "a", "primaryShards": 1, "replicas": 0, "indexPerSecond": 4.0},
                     {"name": "logs-shop-b", "problem": "no index, alias or data stream named logs-shop-b (yet)"}]}}"""));
        assertTrue(table.contains("indexes 2  data nodes 1"), table);
        assertTrue(table.matches("(?s).*\\ba\\s+a\\s+1\\s+0\\s+4\\.0\\n.*"), table);
        assertTrue(table.contains("index logs-shop-b: no index, alias or data stream named logs-shop-b (yet)"), table);
    }

    @Test
    void theLagsAgeAndVerdictAndThePartitionsNotCaughtUpOldestFirst() throws Exception {
        String table = StatusCommand.table(read("""
                {"name": "s", "topics": ["t"], "tasksMax": 1, "partitions": 3, "partitionsPerTopic": {"t": 3}, "tasks": [],
                 "commitIntervalSeconds": 60.0,
                 "lag": {"total": 1500, "seconds": 700.0, "lowerBound": true, "verdict": "stalled", "unconsumed": 1400,
                         "unconsumedSeconds": 650.0, "partitions": [
                   {"topic": "t", "partition": 0, "records": 0, "seconds": 0.0, "lowerBound": false, "verdict": "caught-up"},
                   {"topic": "t", "partition": 1, "records": 300, "seconds": 31.9, "lowerBound": false, "verdict": "growing"},
                   {"topic": "t", "partition": 2, "records": 1200, "seconds": 700.0, "lowerBound": true, "verdict": "stalled"}]},
                 "stable": false}"""));
        assertTrue(table.contains("lag 1400  age >=650.0 s  stalled"), table);
        assertTrue(table.contains("committed: lag 1500  age >=700.0 s  commits every 60 s"), table);
        assertTrue(
                table.indexOf("2                        1200       >=700.0 s      stalled")
                        < table.indexOf("1                        300        31.9 s         growing"),
                table);
        assertTrue(table.indexOf("caught-up") < 0, "a partition caught up is not listed: " + table);
    }

    @Test
    void eachTasksBusyTimeAndCapacityAndTheSinksPerTaskCapacityOrWhyItIsUnknown() throws Exception {
        String table = StatusCommand.table(read("""
                {"name": "s", "topics": ["t"], "tasks": [
                   {"id": 0, "state": "RUNNING", "workerId": "w:8083", "partitions": [0], "partitionsByTopic": {"t": [0]},
                    "recordsPerSecond": 21.0, "busyFraction": 0.734,
                    "capacity": {"recordsPerSecond": 28.61, "low": 27.9, "high": 29.44, "samples": 15}},
                   {"id": 1, "state": "RUNNING", "workerId": "w:8083", "partitions": [1], "partitionsByTopic": {"t": [1]},
                    "capacity": {"samples": 0, "unknown": "near idle"}}],
                 "lag": {"unconsumed": 4, "unconsumedFrom": "positions"},
                 "capacity": {"recordsPerSecond": 28.61, "low": 27.9, "high": 29.44, "samples": 15, "busyFrom": "poll-idle",
                              "source": "exporter"},
                 "stable": true}"""));
        assertTrue(
                table.contains("capacity per task 28.6 records/s (27.9 to 29.4 over the window, 15 readings; busy from"
                        + " poll-idle, exporter)  busy ?"),
                table);
        assertTrue(
                table.matches("(?s).*\\n0 +RUNNING +w:8083 +21\\.0 +73% +28\\.6 \\(27\\.9-29\\.4\\) +0\\n.*"), table);
        assertTrue(table.matches("(?s).*\\n1 +RUNNING +w:8083 +\\? +\\? +\\? +1\\n.*"), table);
        assertTrue(table.contains("(Little's law)  from positions"), table);
        assertFalse(table.contains("rising"), table);
        String rising = StatusCommand.table(read("""
                {"name": "s", "topics": ["t"], "tasks": [], "stable": true,
                 "capacity": {"recordsPerSecond": 31.6, "low": 22.0, "high": 45.9, "samples": 15, "busyFrom": "put-time",
                              "source": "exporter", "rising": true}}"""));
        assertTrue(rising.contains("rising: a task is still speeding up"), rising);
        String unknown = StatusCommand.table(read("""
                {"name": "s", "topics": ["t"], "tasks": [], "stable": true,
                 "capacity": {"samples": 0, "unknown": "the workers' metrics are not read"}}"""));
        assertTrue(unknown.contains("capacity per task unknown: the workers' metrics are not read"), unknown);
    }
}
