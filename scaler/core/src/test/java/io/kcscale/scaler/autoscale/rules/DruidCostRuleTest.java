package io.kcscale.scaler.autoscale.rules;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Druid's cost-based autoscaler, held to the cases of Druid's own WeightedCostFunctionTest (the U-shaped idle cost at
 * its ideal, at idle 0 and 1 and with no idle reading; the lag cost's absolute model; a consolidation past saturation)
 * and to CostBasedAutoScaler's candidates and delays.
 */
class DruidCostRuleTest {

    private static final double HOUR = DruidCostRule.TASK_DURATION_SECONDS;

    /** Druid's test metrics: a per-partition lag, the current tasks, the partitions, the poll-idle ratio, 1,000/s per task. */
    private static DruidCostRule.Metrics metrics(double avgPartitionLag, int tasks, int partitions, double pollIdle) {
        return new DruidCostRule.Metrics(avgPartitionLag * partitions, tasks, partitions, pollIdle, 1000);
    }

    @ParameterizedTest(name = "idle {0} at {1} tasks costs {2}")
    @CsvSource({
        // at the ideal 0.25 only the baseline: n x 0.25
        "0.25, 10, 2.5",
        // idle 0: the whole under-provisioning penalty, n x (0.25 + 2)
        "0.0, 10, 22.5",
        // idle 1: the whole over-provisioning penalty, n x (0.25 + 1)
        "1.0, 10, 12.5",
        // idle 0.5: (0.5 - 0.25) / 0.75 = 1/3, penalty 1/9
        "0.5, 10, 3.6111111111",
    })
    void theIdleCostIsUShapedAroundAQuarterIdle(double idle, int tasks, double expected) {
        assertEquals(expected, DruidCostRule.uShapedIdleCost(idle, tasks), 1e-9);
    }

    @Test
    void withoutAnIdleReadingEveryCountIsPricedAtHalfIdle() {
        DruidCostRule.Metrics missing = metrics(0, 10, 100, -1);
        double perTask = 0.25 + (1.0 / 3) * (1.0 / 3);
        assertEquals(10 * perTask, DruidCostRule.cost(missing, 10, HOUR, 0, 1), 1e-9);
        assertEquals(20 * perTask, DruidCostRule.cost(missing, 20, HOUR, 0, 1), 1e-9);
    }

    @Test
    void theLagCostIsTheAmplifiedRecoveryTimeAtTheProposedCount() {
        DruidCostRule.Metrics m = metrics(100_000, 10, 100, 0.3);
        double lag = 100_000.0 * 100;
        double amplification = 1 + DruidCostRule.LAG_AMPLIFICATION_MULTIPLIER * Math.log(100_000);
        for (int tasks : new int[] {10, 15, 20}) {
            double lagOnly = DruidCostRule.cost(m, tasks, HOUR, 1, 0);
            assertEquals(
                    lag * amplification / (tasks * DruidCostRule.MIN_PROCESSING_RATE), lagOnly, 0.1, tasks + " tasks");
        }
        assertTrue(
                DruidCostRule.cost(m, 5, HOUR, 1, 0) > DruidCostRule.cost(m, 10, HOUR, 1, 0),
                "fewer tasks drain slower");
    }

    @Test
    void aConsolidationPastSaturationPaysTheOverrunAsLagAndTheWholeUnderProvisioningPenalty() {
        // 10 tasks 40% idle down to 2: busy 0.6 needs 3 tasks' worth, the 2 are 2x over: idle 0, overrun 2
        DruidCostRule.Metrics m = metrics(0, 10, 100, 0.4);
        assertEquals(2 * (0.25 + 2.0), DruidCostRule.cost(m, 2, HOUR, 0, 1), 1e-9);
        assertEquals(2 * HOUR, DruidCostRule.cost(m, 2, HOUR, 1, 0), 1e-9);
    }

    @Test
    void candidatesComeFromPartitionsPerTaskWithScaleDownBoundedToFourMore() {
        // 20 partitions at 10 tasks (2 each): up to 1 per task (20 tasks), down to 6 per task (4 tasks)
        assertArrayEquals(new int[] {4, 5, 7, 10, 20}, DruidCostRule.candidates(20, 10, 1, 20));
        // at one task every count up to the maximum is reachable (1..20 partitions per task)
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 7, 10, 20}, DruidCostRule.candidates(20, 1, 1, 20));
        // 6 at most: 20 / 6 = 3 partitions per task, which takes 7 tasks, beyond the bound
        assertArrayEquals(new int[] {1, 2, 3, 4, 5}, DruidCostRule.candidates(20, 1, 1, 6));
    }

    @Test
    void aBacklogScalesUpOnceThePeriodComesAndScaleDownsWait30Minutes() {
        ScalingRule rule = ScalingRules.create(DruidCostRule.NAME, Observations.latencyTarget(1, 20, 5), 5_000);
        assertEquals(600_000, rule.evaluationIntervalMillis(), "every 10 minutes");
        PolicyMemory m = new PolicyMemory();
        // one task, fully busy, a million records behind on 20 partitions
        Decision up = rule.decide(Observations.of(600, 1, 20, 10_400, 2_600, 1_000_000, 1.0), m);
        assertEquals(Decision.Action.SCALE_UP, up.action(), up.reason());
        rule.applied(up, 1.0, m);
        // caught up and mostly idle ten minutes later: cheaper with fewer, but 30 minutes must pass
        Decision early = rule.decide(Observations.of(1200, up.toTasks(), 20, 2_600, 2_600, 0, 0.1), m);
        assertEquals(Decision.Action.HOLD, early.action(), early.reason());
        assertEquals("scale-delay", early.code());
        Decision down = rule.decide(Observations.of(2400, up.toTasks(), 20, 2_600, 2_600, 0, 0.1), m);
        assertEquals(Decision.Action.SCALE_DOWN, down.action(), down.reason());
    }
}
