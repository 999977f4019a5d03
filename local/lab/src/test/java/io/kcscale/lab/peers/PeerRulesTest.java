package io.kcscale.lab.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each peer's rule on single observations: one task does 1,000/s, the target is 5 s, 20 partitions, 1..20 tasks. */
class PeerRulesTest {

    private static final double PER_TASK = 1_000;
    private static final double TARGET = 5;

    private static Observation at(long atMillis, int tasks, double appendRate, long lag) {
        return new Observation(
                atMillis,
                tasks,
                tasks,
                20,
                appendRate,
                Math.min(appendRate, tasks * PER_TASK),
                lag,
                true,
                List.of(),
                List.of(),
                false,
                null,
                null);
    }

    private static ScalingRule rule(String name) {
        return PeerRules.create(PER_TASK, TARGET, 1, 20).stream()
                .filter(r -> r.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @ParameterizedTest(name = "{0}: {1} tasks, {2}/s, lag {3} -> {4} {5}")
    @CsvSource({
        // (appendRate + lag / 5 s) / 1,000, rounded up to a divisor of 20
        "rate-plus-lag, 1, 1000, 0, NONE, 1",
        "rate-plus-lag, 1, 2500, 5000, SCALE_UP, 4",
        "rate-plus-lag, 1, 2500, 10000, SCALE_UP, 5",
        "rate-plus-lag, 4, 900, 0, SCALE_DOWN, 1",
        // the backlog drains within 5 s with the spare capacity of the count chosen
        "rate-based, 1, 2000, 10000, SCALE_UP, 4",
        "rate-based, 3, 2000, 1000, NONE, 3",
        "rate-based, 20, 30000, 10000, BLOCKED, 20",
        // lag cost (seconds to drain the backlog grown over a period, / target, weight 0.4) against idle tasks (weight
        // 0.6)
        "cost-based, 1, 3000, 300000, SCALE_UP, 6",
        "cost-based, 10, 1000, 0, SCALE_DOWN, 1",
        "cost-based, 3, 2900, 0, NONE, 3",
    })
    void decides(String name, int tasks, double appendRate, long lag, Decision.Action action, int toTasks) {
        Decision d = rule(name).decide(at(1_000_000, tasks, appendRate, lag), new PolicyMemory());
        assertEquals(action, d.action(), d.reason());
        assertEquals(toTasks, d.toTasks(), d.reason());
    }

    @Test
    void ratePlusLagCoolsOffAfterAChangeAndReadsThePercentileOfItsWindow() {
        ScalingRule r = rule(RatePlusLagRule.NAME);
        PolicyMemory m = new PolicyMemory();
        Decision up = r.decide(at(0, 1, 3_500, 0), m);
        r.applied(up, null, m);
        assertEquals(4, up.toTasks());
        Decision more = r.decide(at(30_000, 4, 9_000, 0), m);
        assertEquals(Decision.Action.HOLD, more.action(), more.reason());
        assertEquals(
                10,
                r.decide(at(RatePlusLagRule.COOL_OFF_MILLIS, 4, 1_000, 0), m).toTasks(),
                "the window's p99 is still 9,000/s");
        assertEquals(9_000, RatePlusLagRule.p99(new double[] {1, 9_000, 3}));
        assertEquals(5, RatePlusLagRule.evenSplit(5, 20, 20));
        assertEquals(10, RatePlusLagRule.evenSplit(6, 20, 20));
        assertEquals(7, RatePlusLagRule.evenSplit(7, 13, 7), "no divisor up to the cap: the count itself");
    }

    @Test
    void rateBasedScalesDownOnlyAfterItsBufferAndKeepsHeadroom() {
        ScalingRule r = rule(RateBasedRule.NAME);
        PolicyMemory m = new PolicyMemory();
        assertEquals(Decision.Action.HOLD, r.decide(at(0, 10, 2_000, 0), m).action());
        Decision down = r.decide(at(RateBasedRule.SCALE_DOWN_BUFFER_MILLIS, 10, 2_000, 0), m);
        assertEquals(Decision.Action.SCALE_DOWN, down.action(), down.reason());
        assertEquals(3, down.toTasks(), "2,000/s at 80% of 1,000/s per task");
        assertTrue(
                r.decide(at(0, 1, 2_000, 10), new PolicyMemory()).reason().contains("unbounded"),
                "never 'Infinity' in a reason");
    }

    @Test
    void costBasedActsOnlyOnAWorthwhileDrop() {
        CostBasedRule r = new CostBasedRule(PER_TASK, TARGET, 1, 20);
        Observation o = at(0, 3, 2_900, 0);
        assertTrue(r.cost(3, o) <= r.cost(4, o), "3 tasks at 2,900/s leave the least idle");
        assertEquals(Decision.Action.NONE, r.decide(o, new PolicyMemory()).action());
    }

    @Test
    void badSettingsSayWhichOne() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new RateBasedRule(0, TARGET, 1, 20));
        assertEquals("perTaskRate must be a positive number, got 0.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new CostBasedRule(PER_TASK, TARGET, 5, 2));
        assertEquals("task bounds must satisfy 1 <= minTasks <= maxTasks, got 5..2", e.getMessage());
    }
}
