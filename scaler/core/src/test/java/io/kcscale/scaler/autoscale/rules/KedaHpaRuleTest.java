package io.kcscale.scaler.autoscale.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * KEDA's Kafka scaler behind an HPA, held to the Kubernetes documentation's examples (Horizontal Pod Autoscaling:
 * "Algorithm details", "Stabilization window", "Default behavior") and KEDA's kafka_scaler.go.
 */
class KedaHpaRuleTest {

    @ParameterizedTest(name = "{0} replicas, metric {1}, target {2} per replica -> {3}")
    @CsvSource({
        // the docs: a current value twice the desired one doubles the replicas, half of it halves them
        "4, 800, 100, 8",
        "4, 200, 100, 2",
        // within the 10% tolerance nothing changes
        "4, 360, 100, 4",
        "4, 440, 100, 4",
        // just outside it the ratio decides
        "4, 450, 100, 5",
        "10, 1, 100, 1",
    })
    void theProposalIsTheRatioOfTheMetricToTheTargetOutsideTheTolerance(
            int replicas, long metric, long target, int expected) {
        assertEquals(expected, KedaHpaRule.proposal(metric, target, replicas));
    }

    @ParameterizedTest(name = "{0} -> wanted {1}, allowed {2}")
    @CsvSource({
        // without behavior the HPA adds at most max(2 x current, 4): the default 'Pods 4 / Percent 100 per 15 s'
        "1, 20, 4",
        "3, 20, 6",
        "10, 30, 20",
        "10, 15, 15",
        // and never below minReplicas
        "5, 0, 1",
    })
    void aScaleUpIsLimitedToTwiceTheReplicasOrFour(int current, int desired, int expected) {
        assertEquals(expected, KedaHpaRule.normalize(desired, current, 1, 100));
    }

    @Test
    void kedaCapsTheLagAtThePartitionsTimesTheThreshold() {
        // allowIdleConsumers false: never more replicas than partitions
        assertEquals(20 * 100, KedaHpaRule.kedaMetric(1_000_000, 20, 100));
        assertEquals(1_500, KedaHpaRule.kedaMetric(1_500, 20, 100));
    }

    @Test
    void aScaleDownTakesTheHighestProposalOfTheLast300Seconds() {
        ScalingRule rule = ScalingRules.create(KedaHpaRule.NAME, Observations.lagTarget(1, 20, 1_000), 5_000);
        PolicyMemory m = new PolicyMemory();
        Decision up = rule.decide(Observations.of(0, 2, 20, 0, 0, 8_000, null), m);
        assertEquals(Decision.Action.SCALE_UP, up.action());
        assertEquals(4, up.toTasks(), "8 proposed, at most max(2 x 2, 4)");
        rule.applied(up, 1.0, m);
        Decision more = rule.decide(Observations.of(15, 4, 20, 0, 0, 8_000, null), m);
        assertEquals(8, more.toTasks(), "the next sync goes on to 8");
        rule.applied(more, 1.0, m);
        // the lag is gone: the latest proposal is 1, but 8 was proposed within 300 s
        Decision held = rule.decide(Observations.of(30, 8, 20, 0, 0, 0, null), m);
        assertEquals(Decision.Action.HOLD, held.action());
        assertEquals("stabilization", held.code());
        Decision stillHeld = rule.decide(Observations.of(300, 8, 20, 0, 0, 0, null), m);
        assertEquals(Decision.Action.HOLD, stillHeld.action(), "8 was proposed at 15 s, within 300 s of 300 s");
        Decision down = rule.decide(Observations.of(316, 8, 20, 0, 0, 0, null), m);
        assertEquals(Decision.Action.SCALE_DOWN, down.action());
        assertEquals(1, down.toTasks(), "the default scale-down policy removes up to 100% at once");
    }

    @Test
    void theHpaActsDuringARebalanceToo() {
        ScalingRule rule = ScalingRules.create(KedaHpaRule.NAME, Observations.lagTarget(1, 20, 1_000), 5_000);
        Decision d = rule.decide(Observations.rebalancing(0, 2, 20, 8_000), new PolicyMemory());
        assertEquals(Decision.Action.SCALE_UP, d.action());
    }

    @Test
    void itSyncsEvery15SecondsAsShippedAndFasterOnlyOnAShortenedTrace() {
        assertEquals(
                15_000,
                ScalingRules.create(KedaHpaRule.NAME, Observations.lagTarget(1, 20, 1_000), 5_000)
                        .evaluationIntervalMillis());
        assertEquals(
                3_750,
                ScalingRules.create(
                                KedaHpaRule.NAME,
                                Observations.lagTarget(1, 20, 1_000),
                                5_000,
                                new ScalingRules.LabSettings(null, 0.25))
                        .evaluationIntervalMillis());
    }
}
