package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DuplicateSinkCheckTest {

    private static final DuplicateSinkCheck CHECK = new DuplicateSinkCheck();

    private static Finding withOther(Map<String, String> config, String type) {
        Fixture f = new Fixture();
        f.otherConnectors.add(new CheckSamples.Connector("other", type, "RUNNING", config));
        return f.run(CHECK);
    }

    private static String camel(String index) {
        return "elasticsearch-rest://local?hostAddresses=h:9200&operation=Index&indexName=" + index;
    }

    @Test
    void anotherSinkOfTheSameTopicIntoTheSameIndexIsAWarningNamingIt() {
        Finding f = withOther(Map.of("topics", "x,t", "camel.sink.url", camel("idx")), "sink");
        assertEquals(Severity.WARNING, f.severity());
        assertEquals(1, f.evidence().get("duplicates"));
        assertEquals(List.of("other"), f.evidence().get("duplicateSinks"));
        assertEquals("idx", f.evidence().get("index"));
        assertTrue(f.advice().contains("DELETE /connectors/other"), f.advice());
    }

    @Test
    void anotherIndexAnotherTopicOrASourceIsNoDuplicate() {
        assertEquals(
                Severity.OK,
                withOther(Map.of("topics", "t", "camel.sink.url", camel("idx2")), "sink")
                        .severity());
        assertEquals(
                Severity.OK,
                withOther(Map.of("topics", "u", "camel.sink.url", camel("idx")), "sink")
                        .severity());
        assertEquals(
                Severity.OK,
                withOther(Map.of("topics", "t", "camel.sink.url", camel("idx")), "source")
                        .severity());
        Finding ok = withOther(Map.of("topics", "t", "camel.sink.url", camel("idx2")), "sink");
        assertEquals(1, ok.evidence().get("otherSinks"));
        assertEquals(0, ok.evidence().get("duplicates"));
    }

    @Test
    void aTopicsRegexThatMatchesCounts() {
        assertEquals(
                Severity.WARNING,
                withOther(Map.of("topics.regex", "t|u", "camel.sink.url", camel("idx")), "sink")
                        .severity());
        assertEquals(
                Severity.OK,
                withOther(Map.of("topics.regex", "(", "camel.sink.url", camel("idx")), "sink")
                        .severity());
    }

    @Test
    void aSinkWithoutAnIndexDuplicatesAnotherOfTheSameClassAndDestination() {
        Map<String, String> file =
                Map.of("connector.class", "FileStreamSinkConnector", "topics", "t", "file", "/out/a");
        Fixture f = new Fixture();
        f.index = null;
        f.sinkConfig = new java.util.LinkedHashMap<>(file);
        f.sinkConfig.put("tasks.max", "3");
        f.otherConnectors.add(new CheckSamples.Connector(
                "copy",
                "sink",
                "RUNNING",
                Map.of(
                        "connector.class",
                        "FileStreamSinkConnector",
                        "topics.regex",
                        "t.*",
                        "file",
                        "/out/a",
                        "tasks.max",
                        "1",
                        "consumer.override.max.poll.records",
                        "10")));
        f.otherConnectors.add(new CheckSamples.Connector(
                "elsewhere",
                "sink",
                "RUNNING",
                Map.of("connector.class", "FileStreamSinkConnector", "topics", "t", "file", "/out/b")));
        f.otherConnectors.add(new CheckSamples.Connector("named", "sink", "RUNNING", file, List.of("idx")));
        Finding found = f.run(CHECK);
        assertEquals(Severity.WARNING, found.severity());
        assertEquals(
                List.of("copy"),
                found.evidence().get("duplicateSinks"),
                "another file, or an index named for it, is elsewhere");
        assertEquals(
                Map.of("connector.class", "FileStreamSinkConnector", "file", "/out/a"),
                found.evidence().get("destination"));
        assertTrue(found.title().contains("into the same destination"), found.title());
    }

    @Test
    void anIndexNamedForTheOtherSinkIsCompared() {
        Fixture f = new Fixture();
        f.otherConnectors.add(new CheckSamples.Connector(
                "other", "sink", "RUNNING", Map.of("topics", "t", "connector.class", "X"), List.of("idx")));
        assertEquals(Severity.WARNING, f.run(CHECK).severity());
    }

    @Test
    void aSinkOfSeveralIndexesDuplicatesAnotherThatWritesOneOfThemOrItsAliasWriteIndex() {
        Fixture f = new Fixture();
        f.indexes = List.of(
                new PipelineSnapshot.Index("logs", "logs-000002", 1, 0, null, null, null, null),
                new PipelineSnapshot.Index("orders", "orders", 1, 0, null, null, null, null));
        f.otherConnectors.add(new CheckSamples.Connector(
                "direct", "sink", "RUNNING", Map.of("topics", "t", "camel.sink.endpoint.indexName", "logs-000002")));
        f.otherConnectors.add(new CheckSamples.Connector(
                "apart", "sink", "RUNNING", Map.of("topics", "t", "camel.sink.endpoint.indexName", "logs-000001")));
        Finding found = f.run(CHECK);
        assertEquals(Severity.WARNING, found.severity());
        assertEquals(List.of("direct"), found.evidence().get("duplicateSinks"));
        assertEquals(List.of("logs", "orders"), found.evidence().get("indexes"));
        assertTrue(found.title().contains("into index logs-000002"), found.title());
    }

    @Test
    void withoutConnectItIsInfo() {
        Fixture f = new Fixture();
        f.otherConnectors = null;
        assertEquals(Severity.INFO, f.run(CHECK).severity());
    }
}
