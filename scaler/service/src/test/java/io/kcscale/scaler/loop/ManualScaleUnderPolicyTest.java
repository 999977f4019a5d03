package io.kcscale.scaler.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.api.HttpStatuses;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.ports.PolicyStore;
import io.kcscale.scaler.ports.ScalerException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A user's scale beside an autoscale policy: refused under an active one unless forced; forced, the policy is paused. */
class ManualScaleUnderPolicyTest {

    private static final AutoscalePolicy POLICY =
            new AutoscalePolicy(1, 6, 5.0, null, null, null, null, null, null, null);

    private static AutoscaleLoop loop(PolicyStore store) {
        return new AutoscaleLoop(
                c -> Optional.empty(),
                (c, request, fence) -> {
                    throw new AssertionError("the loop scales nothing here: no connector is observed");
                },
                store,
                new LeaderLease("a", () -> true, store, LeaderLease.DURATION, System::nanoTime),
                c -> List.of(),
                5_000,
                Duration.ofMinutes(5),
                System::currentTimeMillis);
    }

    @Test
    void anActivePolicyRefusesAManualScaleUnlessForcedAndIsThenPaused() {
        InMemoryPolicyStore store = new InMemoryPolicyStore();
        AutoscaleLoop loop = loop(store);
        assertEquals(Optional.empty(), loop.admitManualScale("sink", false, false), "no policy, nothing to say");
        loop.put("sink", POLICY);

        ScalerException refused =
                assertThrows(ScalerException.class, () -> loop.admitManualScale("sink", false, false));
        assertEquals(409, HttpStatuses.of(refused.problem()));
        assertTrue(
                refused.getMessage()
                        .startsWith("sink is under an active autoscale policy (minTasks 1, maxTasks 6,"
                                + " targetLatencySeconds 5.0) that would undo a manual scale"),
                refused.getMessage());

        assertTrue(loop.admitManualScale("sink", true, true)
                .orElseThrow()
                .startsWith("would pause the autoscale policy of sink"));
        assertTrue(loop.admitManualScale("sink", true, false)
                .orElseThrow()
                .startsWith("paused the autoscale policy of sink"));
        loop.pause("sink");
        assertTrue(loop.state("sink").orElseThrow().policy().dryRun());
        assertTrue(store.policy("sink").orElseThrow().policy().dryRun(), "the pause is stored");
        assertEquals(
                Optional.empty(),
                loop.admitManualScale("sink", false, false),
                "a paused policy lets a manual scale through");
    }

    @Test
    void aForcedScaleRacingADeleteDoesNotBringThePolicyBack() {
        InMemoryPolicyStore store = new InMemoryPolicyStore();
        AutoscaleLoop scaling = loop(store);
        AutoscaleLoop deleting = loop(store);
        scaling.put("sink", POLICY);
        long seen = store.policy("sink").orElseThrow().version();
        assertTrue(scaling.admitManualScale("sink", true, false).isPresent());

        assertTrue(deleting.remove("sink"));
        scaling.pause("sink");
        store.pause("sink", seen);
        assertEquals(Optional.empty(), store.policy("sink"), "a pause of the deleted version brings nothing back");
        assertEquals(Optional.empty(), scaling.state("sink"));

        deleting.put("sink", POLICY);
        store.pause("sink", seen);
        assertFalse(store.policy("sink").orElseThrow().policy().dryRun(), "nor pauses the policy PUT since");
    }
}
