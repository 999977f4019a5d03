package io.kcscale.scaler.autoscale.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Responsive's documented example policy (configure-policies.mdx): an expected-latency diagnoser with the RATE_BASED
 * strategy and a thread-saturation diagnoser at 0.65.
 */
class ResponsiveRuleTest {

    @ParameterizedTest(name = "lag {0} at {1}/s waits {2} s")
    @CsvSource({"0, 0, 0", "1000, 100, 10", "5000, 2500, 2"})
    void theExpectedLatencyIsTheLagAtTheProcessingRate(long lag, double rate, double seconds) {
        assertEquals(seconds, ResponsiveRule.expectedLatencySeconds(lag, rate), 1e-9);
    }

    @ParameterizedTest(name = "lag {0}, {1}/s appended, target {2} s, buffer {3} s -> {4}/s")
    @CsvSource({
        // no lag: the append rate
        "0, 1000, 60, 60, 1000",
        // 120,000 behind at 1,000/s: (120,000 + 60,000) / 120 = 1,500/s brings it under 60 s within 60 s
        "120000, 1000, 60, 60, 1500",
        // a shorter buffer asks for more
        "120000, 1000, 60, 20, 1750",
    })
    void theRateBasedStrategyMeetsTheAppendRateAndRecoversWithinTheBuffer(
            long lag, double append, double target, double buffer, double expected) {
        assertEquals(expected, ResponsiveRule.rateNeeded(lag, append, target, buffer), 1e-9);
    }

    @Test
    void overTheTargetItScalesToTheRateNeededAndWhenIdleItRemovesOneReplica() {
        ScalingRule rule = ScalingRules.create(ResponsiveRule.NAME, Observations.latencyTarget(1, 20, 60), 5_000);
        PolicyMemory m = new PolicyMemory();
        // 2 tasks consume 2,000/s, 4,000/s arrive, 240,000 behind (120 s): (240,000 + 240,000) / 120 = 4,000/s
        Decision up = rule.decide(Observations.of(0, 2, 20, 4_000, 2_000, 240_000, 1.0), m);
        assertEquals(Decision.Action.SCALE_UP, up.action(), up.reason());
        assertEquals(4, up.toTasks());
        rule.applied(up, 1.0, m);
        Decision idle = rule.decide(Observations.of(60, 4, 20, 1_000, 1_000, 0, 0.2), m);
        assertEquals(Decision.Action.SCALE_DOWN, idle.action(), idle.reason());
        assertEquals(3, idle.toTasks(), "one replica at a time");
    }

    @Test
    void withoutABusyFractionThreadSaturationCannotScaleDown() {
        ScalingRule rule = ScalingRules.create(ResponsiveRule.NAME, Observations.latencyTarget(1, 20, 60), 5_000);
        Decision d = rule.decide(Observations.of(0, 4, 20, 1_000, 1_000, 0, null), new PolicyMemory());
        assertEquals(Decision.Action.NONE, d.action());
    }
}
