package io.kcscale.scaler.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.kcscale.scaler.act.ScaleException;

/** A user's scale beside an autoscale policy: refused under an active one unless forced; forced, the policy is paused. */
class ManualScaleUnderPolicyTest {

    private static final AutoscaleSettings POLICY = new AutoscaleSettings(1, 6, 5.0, null, null, null, null, null, null);

    @Test
    void anActivePolicyRefusesAManualScaleUnlessForcedAndIsThenPaused(@TempDir Path state) {
        PolicyStore store = new PolicyStore(state);
        AutoscaleLoop loop = new AutoscaleLoop(null, null, store, c -> List.of(), 5_000, Duration.ofMinutes(5),
                System::currentTimeMillis);
        assertEquals(Optional.empty(), loop.admitManualScale("sink", false, false), "no policy, nothing to say");
        loop.put("sink", POLICY);

        ScaleException refused = assertThrows(ScaleException.class, () -> loop.admitManualScale("sink", false, false));
        assertEquals(409, refused.kind().status);
        assertTrue(refused.getMessage().startsWith("sink is under an active autoscale policy (minTasks 1, maxTasks 6,"
                + " targetLatencySeconds 5.0) that would undo a manual scale"), refused.getMessage());

        assertTrue(loop.admitManualScale("sink", true, true).orElseThrow().startsWith("would pause the autoscale policy of sink"));
        assertTrue(loop.admitManualScale("sink", true, false).orElseThrow().startsWith("paused the autoscale policy of sink"));
        loop.pause("sink");
        assertTrue(loop.state("sink").orElseThrow().policy().dryRun());
        assertTrue(store.load().get("sink").dryRun(), "the pause is persisted");
        assertEquals(Optional.empty(), loop.admitManualScale("sink", false, false), "a paused policy lets a manual scale through");
    }
}
