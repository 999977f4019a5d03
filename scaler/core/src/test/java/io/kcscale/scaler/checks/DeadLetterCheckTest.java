package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeadLetterCheckTest {

    private final Fixture f = new Fixture();

    private Finding run() {
        return f.run(new DeadLetterCheck());
    }

    @Test
    void recordsDeadLetteredWithinTheWindowAreAWarningNamingTheLatestReason() {
        f.sinkConfig = Map.of("errors.tolerance", "all", "errors.deadletterqueue.topic.name", "stocks-dlq");
        f.deadLetters = new PipelineSnapshot.DeadLetters("stocks-dlq", 1.5, 90L, "DataException: not a JSON object");
        Finding finding = run();
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals(
                "records are dead-lettered to stocks-dlq (1.50/s over the window): DataException: not a JSON object",
                finding.title());
        assertEquals(1.5, finding.evidence().get("appendPerSecond"));
        assertEquals("DataException: not a JSON object", finding.evidence().get("latestReason"));
        assertTrue(finding.advice().contains("more tasks will not bring them back"), finding.advice());
    }

    @Test
    void aQuietDeadLetterTopicIsOk() {
        f.sinkConfig = Map.of("errors.tolerance", "all", "errors.deadletterqueue.topic.name", "stocks-dlq");
        f.deadLetters = new PipelineSnapshot.DeadLetters("stocks-dlq", 0.0, 90L, "DataException: not a JSON object");
        assertEquals(Severity.OK, run().severity());
        f.deadLetters = new PipelineSnapshot.DeadLetters("stocks-dlq", null, null, null);
        assertEquals(Severity.INFO, run().severity(), "not read yet");
    }

    @Test
    void toleratingErrorsWithoutADeadLetterTopicDropsRecordsWithoutATrace() {
        f.sinkConfig = Map.of("errors.tolerance", "all");
        Finding finding = run();
        assertEquals(Severity.WARNING, finding.severity());
        assertTrue(finding.title().startsWith("errors.tolerance=all without a dead-letter topic"), finding.title());
        f.sinkConfig = Map.of();
        assertEquals(Severity.OK, run().severity(), "a bad record fails the task: seen, not lost");
    }
}
