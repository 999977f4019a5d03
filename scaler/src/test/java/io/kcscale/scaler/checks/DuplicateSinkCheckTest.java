package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(Severity.OK, withOther(Map.of("topics", "t", "camel.sink.url", camel("idx2")), "sink").severity());
        assertEquals(Severity.OK, withOther(Map.of("topics", "u", "camel.sink.url", camel("idx")), "sink").severity());
        assertEquals(Severity.OK, withOther(Map.of("topics", "t", "camel.sink.url", camel("idx")), "source").severity());
        Finding ok = withOther(Map.of("topics", "t", "camel.sink.url", camel("idx2")), "sink");
        assertEquals(1, ok.evidence().get("otherSinks"));
        assertEquals(0, ok.evidence().get("duplicates"));
    }

    @Test
    void aTopicsRegexThatMatchesCounts() {
        assertEquals(Severity.WARNING, withOther(Map.of("topics.regex", "t|u", "camel.sink.url", camel("idx")), "sink").severity());
        assertEquals(Severity.OK, withOther(Map.of("topics.regex", "(", "camel.sink.url", camel("idx")), "sink").severity());
    }

    @Test
    void withoutConnectItIsInfo() {
        Fixture f = new Fixture();
        f.otherConnectors = null;
        assertEquals(Severity.INFO, f.run(CHECK).severity());
    }
}
