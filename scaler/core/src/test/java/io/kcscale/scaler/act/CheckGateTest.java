package io.kcscale.scaler.act;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckGateTest {

    private static final Finding CRITICAL =
            new Finding("key-cardinality", Severity.CRITICAL, "only 2 distinct keys", Map.of(), "Key by price.");
    private static final Finding WARNING =
            new Finding("index-shards", Severity.WARNING, "1 primary shard for 3 tasks", Map.of(), "");
    private static final Finding INFO = new Finding("rebalance-config", Severity.INFO, "session 45 s", Map.of(), "");

    @Test
    void aCriticalFindingRefusesAScaleUpSayingWhy() {
        String why = CheckGate.refusal(List.of(CRITICAL, WARNING), 3, 4, false).orElseThrow();
        assertTrue(
                why.startsWith("adding tasks would not help: key-cardinality: only 2 distinct keys. Key by price."),
                why);
        assertTrue(why.endsWith("Pass force to scale anyway."), why);
    }

    @Test
    void forceAScaleDownOrNoCriticalFindingGoAhead() {
        assertTrue(CheckGate.refusal(List.of(CRITICAL), 3, 4, true).isEmpty());
        assertTrue(CheckGate.refusal(List.of(CRITICAL), 3, 2, false).isEmpty());
        assertTrue(CheckGate.refusal(List.of(CRITICAL), 3, 3, false).isEmpty());
        assertTrue(CheckGate.refusal(List.of(WARNING, INFO), 1, 8, false).isEmpty());
    }

    @Test
    void warningsAndWorseGoIntoTheAnswer() {
        assertEquals(
                List.of(
                        "key-cardinality (critical): only 2 distinct keys",
                        "index-shards (warning): 1 primary shard for 3 tasks"),
                CheckGate.warnings(List.of(CRITICAL, WARNING, INFO)));
    }
}
