package io.kcscale.scaler.autoscale.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Brandwatch's kafka-pod-autoscaler, held to its own KafkaPodAutoscalerReconcilerTest.fitReplicaCount cases. */
class KafkaPodAutoscalerRuleTest {

    @ParameterizedTest(name = "{0} -> ideal {1} over 16 partitions (min {2}, max {3}, steps {4}) -> {5}")
    @CsvSource({
        // scaling up
        "1, 1, 1, 16, 1000, 1",
        "1, 3, 1, 16, 1000, 4",
        "4, 200, 1, 16, 1000, 16",
        "4, 200, 1, 8, 1000, 8",
        "1, 3, 1, 16, 1, 2",
        // scaling down
        "16, 3, 1, 16, 1000, 4",
        "16, 3, 8, 16, 1000, 8",
        "16, 3, 1, 16, 1, 8",
    })
    void countsDivideThePartitionsAndMoveAtMostTheIncrements(
            int current, int ideal, int min, int max, int increments, int expected) {
        assertEquals(expected, KafkaPodAutoscalerRule.fitReplicaCount(current, ideal, 16, min, max, increments));
    }

    @ParameterizedTest(name = "{1}/s wanted of {0}/s at {2} replicas -> {3}")
    @CsvSource({"100, 100, 2, 2", "100, 250, 2, 5", "1000, 10, 4, 1", "100, 0, 3, 0"})
    void theKafkaTriggerScalesTheReplicasByTargetOverConsumerRate(
            double consumerRate, double targetRate, int current, int expected) {
        assertEquals(expected, KafkaPodAutoscalerRule.replicasFor(targetRate, consumerRate, current));
    }

    @Test
    void theLagJoinsTheTargetOnlyAboveTheThresholdAndDrainsOverTheTenMinuteSla() {
        // threshold 13,000 (one task's 5 s at 2,600/s), 2,600/s measured per task, 20 partitions
        ScalingRule rule = ScalingRules.create(
                KafkaPodAutoscalerRule.NAME,
                Observations.latencyTarget(1, 20, 5),
                2_000,
                new ScalingRules.LabSettings(2600.0, 1));
        PolicyMemory m = new PolicyMemory();
        rule.decide(Observations.of(0, 1, 20, 2_000, 2_000, 12_000, null), m);
        rule.decide(Observations.of(10, 1, 20, 2_000, 2_000, 12_000, null), m);
        Decision under = rule.decide(Observations.of(20, 1, 20, 2_000, 2_000, 12_000, null), m);
        assertEquals(
                Decision.Action.NONE, under.action(), "2,000/s fits one task; a lag under the threshold adds nothing");
        // 600,000 records over a 600 s SLA add 1,000/s: 3,000/s needs 2 tasks
        Decision over = rule.decide(Observations.of(30, 1, 20, 2_000, 2_000, 600_000, null), m);
        assertEquals(Decision.Action.SCALE_UP, over.action(), over.reason());
        assertEquals(2, over.toTasks());
    }

    @Test
    void nothingChangesWithin300SecondsOfAScaleOrOfTasksNotRunning() {
        ScalingRule rule = ScalingRules.create(
                KafkaPodAutoscalerRule.NAME,
                Observations.lagTarget(1, 20, 1_000),
                2_000,
                new ScalingRules.LabSettings(100.0, 1));
        PolicyMemory m = new PolicyMemory();
        assertEquals(
                "not-ready",
                rule.decide(Observations.rebalancing(0, 2, 20, 0), m).code());
        for (int t = 10; t < 40; t += 10) {
            rule.decide(Observations.of(t, 2, 20, 1_000, 200, 0, null), m);
        }
        Decision cooling = rule.decide(Observations.of(40, 2, 20, 1_000, 200, 0, null), m);
        assertEquals("cool-off", cooling.code(), "1,000/s wants 10 replicas, but the tasks were not ready 40 s ago");
        Decision after = rule.decide(Observations.of(301, 2, 20, 1_000, 200, 0, null), m);
        assertEquals(4, after.toTasks(), "one step along 1, 2, 4, 5, 10, 20");
    }
}
