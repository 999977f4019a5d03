package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.common.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChecksTest {

    @Test
    void everyCheckReportsOnceInItsOrderAndTheReportCarriesTheWorst() {
        Fixture f = new Fixture();
        CheckReport report = Checks.run(Checks.ALL, f.snapshot(), f.samples());
        assertEquals(
                List.of(
                        "key-cardinality",
                        "partition-skew",
                        "idle-tasks",
                        "partition-count",
                        "index-shards",
                        "duplicate-sink",
                        "rebalance-config",
                        "worker-capacity",
                        "dead-letters",
                        "stability"),
                report.findings().stream().map(Finding::id).toList());
        assertEquals(
                Checks.ALL.stream().map(Check::id).toList(),
                report.findings().stream().map(Finding::id).toList());
        assertEquals(Severity.WARNING, report.severity(), "1 shard for 3 tasks and the default eager assignor");
        assertEquals(3, report.tasks());
        f.keys = Fixture.keys(1000, 0, 2, Map.of());
        assertEquals(
                Severity.CRITICAL,
                Checks.run(Checks.ALL, f.snapshot(), f.samples()).severity());
    }

    @Test
    void severitiesAreLowerCaseInJson() throws Exception {
        CheckReport report = CheckReport.of("s", 1, List.of(new Finding("x", Severity.OK, "t", Map.of("n", 1), "a")));
        assertEquals(
                "ok",
                Json.MAPPER
                        .readTree(Json.write(report))
                        .path("findings")
                        .get(0)
                        .path("severity")
                        .asText());
        assertEquals(
                "ok", Json.MAPPER.readTree(Json.write(report)).path("severity").asText());
        assertEquals(Severity.OK, CheckReport.of("s", 1, List.of()).severity());
    }
}
