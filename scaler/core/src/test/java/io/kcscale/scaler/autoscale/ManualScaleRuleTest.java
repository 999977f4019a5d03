package io.kcscale.scaler.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManualScaleRuleTest {

    private static final AutoscalePolicy ACTIVE =
            new AutoscalePolicy(1, 6, 5.0, null, null, null, null, null, null, null).validated();
    private static final AutoscalePolicy DRY_RUN =
            new AutoscalePolicy(1, 6, 5.0, null, null, null, null, null, true, null).validated();

    @Test
    void noPolicyOrADryRunLetsAManualScaleThroughWithNothingToSay() {
        for (boolean force : new boolean[] {false, true}) {
            assertEquals(
                    new ManualScaleRule.Verdict(Optional.empty(), Optional.empty()),
                    ManualScaleRule.judge("sink", Optional.empty(), force, false));
            assertEquals(
                    new ManualScaleRule.Verdict(Optional.empty(), Optional.empty()),
                    ManualScaleRule.judge("sink", Optional.of(DRY_RUN), force, false));
        }
    }

    @Test
    void anActivePolicyRefusesAnUnforcedScaleNamingThePolicyAndHowToStopIt() {
        ManualScaleRule.Verdict v = ManualScaleRule.judge("sink", Optional.of(ACTIVE), false, false);
        assertEquals(Optional.empty(), v.note());
        String refusal = v.refusal().orElseThrow();
        assertTrue(
                refusal.startsWith(
                        "sink is under an active autoscale policy (minTasks 1, maxTasks 6, targetLatencySeconds 5.0"),
                refusal);
        assertTrue(
                refusal.endsWith(
                        "stop it (DELETE /api/v1/connectors/{name}/autoscale, or kcscale autoscale sink --stop),"
                                + " or pass force to pause it and scale"),
                refusal);
    }

    @Test
    void aForcedScaleGoesAheadAndSaysItPausesThePolicyOrWouldOnADryRun() {
        ManualScaleRule.Verdict forced = ManualScaleRule.judge("sink", Optional.of(ACTIVE), true, false);
        assertEquals(Optional.empty(), forced.refusal());
        assertTrue(
                forced.note().orElseThrow().startsWith("paused the autoscale policy of sink (minTasks 1"),
                forced.note().get());
        assertTrue(
                forced.note().get().endsWith("PUT /api/v1/connectors/{name}/autoscale with dryRun false to resume it"));
        assertTrue(ManualScaleRule.judge("sink", Optional.of(ACTIVE), true, true)
                .note()
                .orElseThrow()
                .startsWith("would pause the autoscale policy of sink"));
    }
}
