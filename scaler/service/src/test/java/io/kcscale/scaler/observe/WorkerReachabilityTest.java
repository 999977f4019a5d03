package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkerReachabilityTest {

    private static final Set<String> GROUP = Set.of("a:1", "b:1", "c:1");

    @Test
    void aWorkerSilentTwoRoundsRunningIsUnreachableSinceItsFirstSilence() {
        WorkerReachability r = new WorkerReachability();
        assertEquals(Map.of(), r.update(GROUP, Set.of("b:1"), 1_000), "one slow answer is no death");
        assertEquals(Map.of("b:1", 1_000L), r.update(GROUP, Set.of("b:1"), 3_000));
        assertEquals(Map.of("b:1", 1_000L), r.update(GROUP, Set.of("b:1"), 5_000));
        assertEquals(Map.of(), r.update(GROUP, Set.of(), 7_000), "it answers again: forgotten");
        assertEquals(Map.of(), r.update(GROUP, Set.of("b:1"), 9_000), "and counted afresh");
    }

    @Test
    void aSilentWorkerThatConnectNoLongerNamesIsForgotten() {
        WorkerReachability r = new WorkerReachability();
        r.update(GROUP, Set.of("b:1"), 1_000);
        r.update(GROUP, Set.of("b:1"), 3_000);
        assertEquals(Map.of(), r.update(Set.of("a:1", "c:1"), Set.of(), 5_000), "its tasks were reassigned");
    }

    @Test
    void noWorkerAnsweringIsInconclusive() {
        WorkerReachability r = new WorkerReachability();
        r.update(GROUP, Set.of("b:1"), 1_000);
        r.update(GROUP, Set.of("b:1"), 3_000);
        assertEquals(
                Map.of(), r.update(GROUP, GROUP, 5_000), "the advertised addresses are not reachable from the scaler");
        assertTrue(r.inconclusive());
        assertEquals(Map.of(), r.update(GROUP, Set.of("b:1"), 7_000), "counted afresh after an inconclusive round");
        assertEquals(Map.of("b:1", 7_000L), r.update(GROUP, Set.of("b:1"), 9_000));
    }
}
