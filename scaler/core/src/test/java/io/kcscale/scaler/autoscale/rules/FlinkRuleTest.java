package io.kcscale.scaler.autoscale.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Flink's autoscaler, held to the cases of its JobVertexScalerTest.testParallelismScaling (release 1.15.0: no
 * catch-up duration, 720 key groups to align to, the scale factors unbounded unless the case bounds them) and to
 * the evaluator's window, stabilization and delayed scale-down.
 */
class FlinkRuleTest {

    private static FlinkRule.Settings settings(double utilization, double maxScaleDown, double maxScaleUp) {
        FlinkRule.Settings d = FlinkRule.Settings.DEFAULTS;
        return new FlinkRule.Settings(
                utilization,
                d.utilizationBoundary(),
                d.metricsWindowMillis(),
                d.stabilizationMillis(),
                d.scaleDownIntervalMillis(),
                maxScaleDown,
                maxScaleUp,
                0,
                d.restartMillis(),
                d.backlogLagThresholdMillis(),
                d.observedTprLagThresholdMillis(),
                d.observedTprSwitchThreshold(),
                d.observedTprMinObservations(),
                d.effectivenessDetection(),
                d.effectivenessThreshold(),
                d.controlLoopMillis());
    }

    @ParameterizedTest(name = "utilization {0}: {3} tasks, target {4}/s, true rate {5}/s -> {6} (outside bounds: {7})")
    @CsvSource({
        "1.0, 1.0, 2147483647, 10, 50, 100, 5, true",
        "0.8, 1.0, 2147483647, 10, 50, 100, 8, false",
        "0.8, 1.0, 2147483647, 10, 80, 100, 10, false",
        "0.8, 1.0, 2147483647, 10, 60, 100, 8, false",
        "0.8, 1.0, 2147483647, 10, 59, 100, 8, false",
        "0.5, 1.0, 2147483647, 2, 100, 40, 10, true",
        "0.6, 1.0, 2147483647, 2, 100, 100, 4, true",
        "1.0, 0.5, 2147483647, 10, 10, 100, 5, true",
        "1.0, 0.6, 2147483647, 10, 10, 100, 4, true",
        "1.0, 1.0, 0.5, 10, 200, 10, 15, true",
        "1.0, 1.0, 0.6, 10, 200, 10, 16, true",
    })
    void theNewParallelismScalesByTargetCapacityOverTrueProcessingRate(
            double utilization,
            double maxScaleDown,
            double maxScaleUp,
            int current,
            double targetRate,
            double trueRate,
            int expected,
            boolean outside) {
        FlinkRule.Change c = FlinkRule.scale(
                current,
                new FlinkRule.Evaluated(targetRate, 0, trueRate, false),
                720,
                1,
                200,
                settings(utilization, maxScaleDown, maxScaleUp));
        assertEquals(expected, c.parallelism());
        if (expected != current) {
            assertEquals(outside, c.outsideUtilizationBound());
        }
    }

    @Test
    void withoutABusyFractionItSaysItCannotDecide() {
        ScalingRule rule = ScalingRules.create(FlinkRule.NAME, Observations.latencyTarget(1, 20, 5), 5_000);
        Decision d = rule.decide(Observations.of(0, 1, 20, 10_000, 2_600, 500_000, null), new PolicyMemory());
        assertEquals(Decision.Action.HOLD, d.action());
        assertEquals("busy-unknown", d.code());
    }

    @Test
    void itWaitsForAFullWindowThenScalesToTheBusyTimeCapacity() {
        ScalingRule rule = ScalingRules.create(FlinkRule.NAME, Observations.latencyTarget(1, 20, 5), 5_000);
        assertEquals(60_000, rule.evaluationIntervalMillis(), "every reconcile of the operator");
        PolicyMemory m = new PolicyMemory();
        // one task busy 100% at 2,600/s; 5,200/s arrive: the lag grows 2,600/s
        Decision d = null;
        for (long t = 0; t <= 900; t += 60) {
            d = rule.decide(Observations.of(t, 1, 20, 5_200, 2_600, 2_600 * t, 1.0), m);
            if (t < 900) {
                assertEquals("collecting", d.code(), "at " + t + " s");
            }
        }
        // target 2,600 + 2,600 = 5,200/s; capacity 2,340,000 / 1,800 + 5,200 x 300 / 1,800 + 5,200 / 0.7 = 9,596/s;
        // 9,596 / 2,600 = 3.7 -> 4 tasks, a divisor of 20
        assertEquals(Decision.Action.SCALE_UP, d.action(), d.reason());
        assertEquals(4, d.toTasks());
        rule.applied(d, 2.0, m);
        Decision after = rule.decide(Observations.of(960, 4, 20, 5_200, 5_200, 2_000_000, 0.5), m);
        assertEquals("stabilizing", after.code(), "5 minutes after the restart");
    }

    @Test
    void theWindowFillsWhenSamplesDoNotFallAWholeWindowApart() {
        // samples every 2.1 s against a 22.5 s window (Flink's 15 minutes x 0.025): no kept sample is ever exactly a
        // window older than the newest, yet the window is full 22.5 s after its first sample
        ScalingRule rule = ScalingRules.create(
                FlinkRule.NAME, Observations.latencyTarget(1, 20, 5), 2_000, new ScalingRules.LabSettings(null, 0.025));
        PolicyMemory m = new PolicyMemory();
        Decision d = null;
        long t = 0;
        for (; t < 22_500; t += 2_100) {
            d = rule.decide(Observations.atMillis(t, 1, 20, 5_200, 2_600, 2_600 * t / 1000, 1.0), m);
            assertEquals("collecting", d.code(), "at " + t + " ms");
        }
        d = rule.decide(Observations.atMillis(t, 1, 20, 5_200, 2_600, 2_600 * t / 1000, 1.0), m);
        assertEquals(Decision.Action.SCALE_UP, d.action(), "at " + t + " ms: " + d.reason());
    }

    @Test
    void aScaleDownWaitsTheScaleDownIntervalFromWhenItWasFirstDue() {
        ScalingRule rule = ScalingRules.create(
                FlinkRule.NAME, Observations.latencyTarget(1, 20, 5), 5_000, new ScalingRules.LabSettings(null, 0.25));
        PolicyMemory m = new PolicyMemory();
        // a quarter of Flink's constants: a 225 s window, a 900 s scale-down interval, a 15 s loop
        Decision d = null;
        long t = 0;
        for (; t <= 225; t += 15) {
            d = rule.decide(Observations.of(t, 10, 20, 2_600, 2_600, 0, 0.1), m);
        }
        assertEquals("scale-down-delayed", d.code(), d.reason());
        for (; t < 225 + 900; t += 15) {
            d = rule.decide(Observations.of(t, 10, 20, 2_600, 2_600, 0, 0.1), m);
            assertEquals(Decision.Action.HOLD, d.action(), "at " + t + " s: " + d.reason());
        }
        d = rule.decide(Observations.of(t, 10, 20, 2_600, 2_600, 0, 0.1), m);
        assertEquals(Decision.Action.SCALE_DOWN, d.action(), d.reason());
        assertEquals(4, d.toTasks(), "at most 60% fewer: 10 x 0.4");
    }
}
