package io.kcscale.scaler.autoscale.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.input.InvalidInputException;
import org.junit.jupiter.api.Test;

class ScalingRulesTest {

    @Test
    void everyNameBuildsTheRuleOfThatName() {
        ScalingRules.LabSettings lab = new ScalingRules.LabSettings(2600.0, 1);
        for (String name : ScalingRules.NAMES) {
            assertEquals(
                    name,
                    ScalingRules.create(name, Observations.latencyTarget(1, 20, 5), 2_000, lab)
                            .name());
        }
        assertInstanceOf(
                RatioScalingRule.class,
                ScalingRules.create(ScalingRules.KCSCALE, Observations.latencyTarget(1, 20, 5), 5_000));
    }

    @Test
    void anUnknownNameIsRefusedNamingTheKnownOnes() {
        InvalidInputException e = assertThrows(
                InvalidInputException.class,
                () -> ScalingRules.create("hpa", Observations.latencyTarget(1, 20, 5), 5_000));
        assertEquals("rule", e.field());
        assertTrue(e.getMessage().contains("keda-hpa, druid-cost"), e.getMessage());
    }

    @Test
    void aThresholdPeerNeedsATargetLagOrAMeasuredRateToDeriveIt() {
        InvalidInputException e = assertThrows(
                InvalidInputException.class,
                () -> ScalingRules.create(KedaHpaRule.NAME, Observations.latencyTarget(1, 20, 5), 5_000));
        assertEquals("targetLag", e.field());
        assertEquals(
                13_000,
                ScalingRules.lagThreshold(
                        KedaHpaRule.NAME,
                        Observations.latencyTarget(1, 20, 5).validated(),
                        new ScalingRules.LabSettings(2600.0, 1)));
        assertEquals(
                50_000,
                ScalingRules.lagThreshold(
                        KedaHpaRule.NAME,
                        Observations.lagTarget(1, 20, 50_000).validated(),
                        ScalingRules.LabSettings.NONE));
    }

    @Test
    void aTimeScaleOutsideZeroToOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ScalingRules.LabSettings(null, 0));
        assertThrows(IllegalArgumentException.class, () -> new ScalingRules.LabSettings(null, 1.5));
        assertThrows(IllegalArgumentException.class, () -> new ScalingRules.LabSettings(-1.0, 1));
    }
}
