package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.CheckReport;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code kcscale check} against a stand-in scaler that answers a fixed report. */
class CheckCommandTest {

    private final StandInScaler scaler = new StandInScaler();

    @AfterEach
    void stop() {
        scaler.close();
    }

    private static Finding finding(String id, Severity severity, String advice) {
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("partitions", 20);
        evidence.put("idleTasks", List.of(2));
        return new Finding(id, severity, id + " title", evidence, advice);
    }

    @Test
    void nothingWorseThanInfoExitsZeroWithAReadableReport() {
        scaler.answer(
                200,
                CheckReport.of(
                        "my sink",
                        3,
                        List.of(
                                finding("key-cardinality", Severity.OK, "keep it"),
                                finding("rebalance-config", Severity.INFO, "line one\nline two"))));
        CliRun run = CliRun.of(
                "check", "my sink", "--scaler-url", scaler.url(), "--sample-records", "500", "--sample-seconds", "2");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "GET /api/v1/connectors/my%20sink/checks?sampleRecords=500&sampleSeconds=2.0", scaler.lastRequest());
        assertTrue(run.out().startsWith("my sink: 1 info, 1 ok (judged for 3 tasks)"), run.out());
        assertTrue(run.out().contains("OK        key-cardinality   key-cardinality title"), run.out());
        assertTrue(run.out().contains("evidence: partitions=20, idleTasks=[2]"), run.out());
        assertTrue(!run.out().contains("keep it"), "an ok finding needs no advice printed: " + run.out());
        assertTrue(run.out().contains("advice: line one" + System.lineSeparator() + "            line two"), run.out());
    }

    @Test
    void aWarningOrWorseExitsOne() {
        scaler.answer(200, CheckReport.of("s", 3, List.of(finding("index-shards", Severity.WARNING, "split"))));
        assertEquals(1, CliRun.of("check", "s", "--scaler-url", scaler.url()).exitCode());
        scaler.answer(200, CheckReport.of("s", 3, List.of(finding("key-cardinality", Severity.CRITICAL, "rekey"))));
        CliRun json = CliRun.of("check", "s", "--scaler-url", scaler.url(), "--json");
        assertEquals(1, json.exitCode());
        assertTrue(json.out().contains("\"severity\" : \"critical\""), json.out());
        assertTrue(
                scaler.lastRequest().endsWith("?sampleRecords=100000&sampleSeconds=5.0"),
                "the defaults are sent: " + scaler.lastRequest());
    }

    @Test
    void aBadBudgetIsOneLineNamingTheFlag() {
        CliRun run = CliRun.of("check", "s", "--scaler-url", scaler.url(), "--sample-records", "0");
        assertEquals(2, run.exitCode());
        assertEquals(
                "kcscale check: --sample-records must be a whole number from 1 to 10000000, got 0",
                run.err().strip());
    }

    @Test
    void anAbsentScalerIsOneLineAndExitOne() {
        scaler.close();
        CliRun run = CliRun.of("check", "s", "--scaler-url", scaler.url());
        assertEquals(1, run.exitCode());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains("does not answer"), run.err());
    }
}
