package io.kcscale.scaler.autoscale.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.input.InvalidInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RatioScalingRuleTest {

    /** maxTasks 20, latency target 5 s, defaults otherwise (utilization 0.8, drain 60 s, cooldown 30 s). */
    private static final AutoscalePolicy SETTINGS =
            new AutoscalePolicy(1, 20, 5.0, null, null, null, null, null, null, null);

    private static Observation obs(long at, int tasks, double append, double sink, long lag) {
        return new Observation(
                at, tasks, tasks, 20, append, sink, lag, true, List.of(), List.of(), false, null, null, null);
    }

    private final RatioScalingRule policy = new RatioScalingRule(SETTINGS, 5_000);

    @Test
    void scalesUpByRatioInOneStep() {
        // 1 task saturated at 100/s while 400/s arrive (the field report's 4x): lag far above 5 s x 400/s
        Decision d = policy.decide(obs(0, 1, 400, 100, 30_000), new PolicyMemory());
        assertEquals(Decision.Action.SCALE_UP, d.action());
        // need = max(400/0.8, 400 + (30000 - 2000)/60) = 866.7/s at 100/s per task -> 9 tasks
        assertEquals(9, d.toTasks(), d.reason());
        assertTrue(d.reason().contains("100.0/s per task"), d.reason());
    }

    @Test
    void theHeadroomDrainsASmallBacklogWithoutAnExtraTask() {
        // 400/s at 80% of 100/s needs 5 tasks, whose 100/s spare drains 100 records above target in 1 s
        Decision d = policy.decide(obs(0, 1, 400, 100, 2_100), new PolicyMemory());
        assertEquals(5, d.toTasks(), d.reason());
    }

    @Test
    void aLoadStepTheWindowStillAveragesIsSizedFromTheLagsGrowth() {
        // 400/s arrive since a step; the 30 s window averages 130/s, then 160/s; lag grows by 300/s
        PolicyMemory m = new PolicyMemory();
        assertEquals(
                Decision.Action.NONE, policy.decide(obs(0, 1, 130, 100, 600), m).action());
        Decision d = policy.decide(obs(2_000, 1, 160, 100, 1_200), m);
        assertEquals(Decision.Action.SCALE_UP, d.action());
        assertEquals(
                5, d.toTasks(), "100/s consumed + 300/s lag growth = 400/s, not the window's 160/s: " + d.reason());
        assertTrue(d.reason().contains("400.0/s appended"), d.reason());
    }

    @Test
    void aNeedWithinTheRatesPrecisionOfWholeTasksIsNotRoundedUp() {
        // 400.4/s at 80% of 100/s is 5.005 tasks: measurement noise, not a sixth task
        Decision d = policy.decide(obs(0, 1, 400.4, 100, 2_100), new PolicyMemory());
        assertEquals(5, d.toTasks(), d.reason());
    }

    @Test
    void capsAtThePartitionCountAndSaysToAddPartitions() {
        Decision d = policy.decide(
                new Observation(0, 1, 1, 4, 400, 100, 30_000, true, List.of(), List.of(), false, null, null, null),
                new PolicyMemory());
        assertEquals(4, d.toTasks());
        assertTrue(d.reason().contains("give the topics partitions for 9 tasks"), d.reason());
    }

    @Test
    void atTheCapItIsBlockedNotFlapping() {
        Decision d = policy.decide(
                new Observation(0, 4, 4, 4, 400, 100, 30_000, true, List.of(), List.of(), false, null, null, null),
                new PolicyMemory());
        assertEquals(Decision.Action.BLOCKED, d.action());
        assertEquals("capped", d.code());
        Decision again = policy.decide(
                new Observation(5_000, 4, 4, 4, 410, 100, 31_000, true, List.of(), List.of(), false, null, null, null),
                new PolicyMemory());
        assertTrue(again.repeats(d), "the same verdict with new numbers is a repeat, reported once");
    }

    @Test
    void holdsWhileUnstableOrCoolingDown() {
        Observation unstable = new Observation(
                0, 1, 1, 20, 400, 100, 30_000, false, List.of("task 0 is FAILED"), List.of(), false, null, null, null);
        Decision d = policy.decide(unstable, new PolicyMemory());
        assertEquals(Decision.Action.HOLD, d.action());
        assertTrue(d.reason().contains("task 0 is FAILED"));

        PolicyMemory m = new PolicyMemory();
        m.recordAction(0, 1, 4, 0.3);
        Decision cooling = policy.decide(obs(29_000, 4, 400, 100, 30_000), m);
        assertEquals("cooldown", cooling.code());
        assertEquals(
                Decision.Action.SCALE_UP,
                policy.decide(obs(30_000, 4, 400, 100, 30_000), m).action());
    }

    @Test
    void cooldownIsTwiceTheLastPauseAndNeverUnder30Seconds() {
        assertEquals(30, SETTINGS.validated().cooldownSeconds(null));
        assertEquals(30, SETTINGS.validated().cooldownSeconds(10.0));
        assertEquals(50, SETTINGS.validated().cooldownSeconds(25.0));
    }

    @Test
    void checksThatSayTasksCannotHelpBlockAScaleUp() {
        Observation keys = new Observation(
                0,
                3,
                3,
                20,
                400,
                100,
                30_000,
                true,
                List.of(),
                List.of("key-cardinality: 2 distinct keys for 20 partitions"),
                false,
                null,
                null,
                null);
        Decision d = policy.decide(keys, new PolicyMemory());
        assertEquals(Decision.Action.BLOCKED, d.action());
        assertTrue(d.reason().startsWith("more tasks cannot help: key-cardinality"), d.reason());
    }

    @Test
    void aScaleUpThatDidNotRaiseThroughputMeansTheSinkIsSaturated() {
        PolicyMemory m = new PolicyMemory();
        policy.decide(obs(0, 2, 400, 200, 30_000), m);
        m.recordAction(0, 2, 4, 0.3);
        Decision d = policy.decide(obs(60_000, 4, 400, 220, 40_000), m);
        assertEquals(Decision.Action.BLOCKED, d.action());
        assertEquals("sink-saturated", d.code());
        assertTrue(d.reason().contains("2 tasks gave 200.0/s, 4 tasks give 220.0/s"), d.reason());
    }

    /** Busy as {@code load} says, the mean of one busiest task and the others at the median. */
    private static Observation skewed(long at, int tasks, double sink, long lag, Observation.TaskLoad load) {
        double mean = (load.busiest() + (tasks - 1) * load.median()) / tasks;
        return new Observation(
                at, tasks, tasks, 20, 400, sink, lag, true, List.of(), List.of(), false, null, mean, load);
    }

    @Test
    void aSkewIsNotASaturatedSink() {
        // 4 tasks over 20 partitions (5 each) gained little: one task 95% busy, the median task 30%
        PolicyMemory m = new PolicyMemory();
        policy.decide(obs(0, 2, 400, 200, 30_000), m);
        m.recordAction(0, 2, 4, 0.3);
        Decision d = policy.decide(skewed(60_000, 4, 220, 10_000, new Observation.TaskLoad(0.95, 0.3, 5)), m);
        assertEquals(Decision.Action.SCALE_UP, d.action(), d.reason());
        // 55/s a task at 46% busy is 120/s of capacity, so the rates ask for 5 tasks (max(400 / 0.8, 400 + 8,000 / 60)
        // = 533/s); at most 3 partitions a task
        // asks for ceil(20 / 3) = 7
        assertEquals(7, d.toTasks(), d.reason());
        assertTrue(
                d.reason()
                        .contains("the busiest task is 95% busy with 5 partitions where the median task is 30%: 7 tasks"
                                + " give it at most 3"),
                d.reason());
        assertEquals(5, d.inputs().busiestTaskPartitions());
        // every task busy and slower is the sink's limit still
        Decision saturated =
                policy.decide(skewed(60_000, 4, 220, 40_000, new Observation.TaskLoad(0.95, 0.9, 5)), m.copy());
        assertEquals("sink-saturated", saturated.code(), saturated.reason());
    }

    @Test
    void aBusiestTaskWithOnePartitionLeftIsAHotKeyMoreTasksCannotSplit() {
        Decision d =
                policy.decide(skewed(0, 20, 300, 40_000, new Observation.TaskLoad(1.0, 0.2, 1)), new PolicyMemory());
        assertEquals(Decision.Action.BLOCKED, d.action(), d.reason());
        assertEquals("skew", d.code());
        assertTrue(d.reason().contains("a hot key or partition, which more tasks cannot split"), d.reason());
    }

    @Test
    void theCapacityComesFromBusyTimeWhereTheWorkersGiveIt() {
        // 1 task consumes 100/s busy 40% of the time: it could do 250/s, so 400/s with its backlog needs 4, not 9
        Observation busy =
                new Observation(0, 1, 1, 20, 400, 100, 30_000, true, List.of(), List.of(), false, null, 0.4, null);
        Decision d = policy.decide(busy, new PolicyMemory());
        assertEquals(4, d.toTasks(), "max(400/0.8, 400 + 28000/60) = 866.7/s at 250/s per task: " + d.reason());
        assertEquals(DecisionInputs.CapacitySource.BUSY_TIME, d.inputs().capacityFrom());
        assertEquals(250.0, d.inputs().perTaskCapacity(), 1e-9);
        // too idle to time: learned from the backlog instead
        Observation idle =
                new Observation(0, 1, 1, 20, 400, 100, 30_000, true, List.of(), List.of(), false, null, 0.05, null);
        assertEquals(
                DecisionInputs.CapacitySource.BACKLOG,
                policy.decide(idle, new PolicyMemory()).inputs().capacityFrom());
    }

    @Test
    void theLastRebalancePauseAddsItsArrivalsToTheBacklogTheStepDrains() {
        PolicyMemory m = new PolicyMemory();
        m.recordAction(-600_000, 1, 1, 30.0);
        Decision d = policy.decide(obs(0, 1, 400, 100, 30_000), m);
        // need = max(400/0.8, 400 + (28,000 + 400 x 30)/60) = 1,066.7/s at 100/s per task -> 11 tasks, not 9
        assertEquals(11, d.toTasks(), d.reason());
        assertEquals(30.0, d.inputs().pauseSeconds());
    }

    @Test
    void aScaleUpJudgedAgainstTheRateItsCapacityPromised() {
        PolicyMemory m = new PolicyMemory();
        Decision up = policy.decide(obs(0, 2, 400, 200, 30_000), m);
        assertEquals(Decision.Action.SCALE_UP, up.action());
        m.recordAction(0, 2, 4, 0.3);
        // 4 tasks at the 100/s each measured before promised 400/s: 290/s is more than half the gain, 280/s is not
        assertEquals(
                Decision.Action.SCALE_UP,
                policy.decide(obs(60_000, 4, 800, 310, 40_000), m.copy()).action());
        Decision d = policy.decide(obs(60_000, 4, 800, 280, 40_000), m);
        assertEquals("sink-saturated", d.code());
        assertTrue(d.reason().contains("4 tasks give 280.0/s where 400.0/s was expected"), d.reason());
    }

    @Test
    void aDrainingBacklogNeedsNoAction() {
        Decision d = policy.decide(obs(0, 4, 100, 400, 3_000), new PolicyMemory());
        assertEquals(Decision.Action.NONE, d.action());
        assertEquals("draining", d.code());
    }

    @Test
    void scalesDownOnlyAfterTasksWereMostlyIdleForAWholeCooldown() {
        PolicyMemory m = new PolicyMemory();
        m.learnCapacity(100);
        // 10 tasks of 100/s capacity consume 100/s: 90% idle
        Decision first = policy.decide(obs(0, 10, 100, 100, 0), m);
        assertEquals("idle-wait", first.code());
        assertEquals(
                Decision.Action.HOLD,
                policy.decide(obs(29_000, 10, 100, 100, 0), m).action());
        Decision down = policy.decide(obs(30_000, 10, 100, 100, 0), m);
        assertEquals(Decision.Action.SCALE_DOWN, down.action());
        assertEquals(2, down.toTasks(), "100/s at 80% of 100/s per task: " + down.reason());
    }

    @Test
    void busyTasksResetTheIdleClock() {
        PolicyMemory m = new PolicyMemory();
        m.learnCapacity(100);
        policy.decide(obs(0, 10, 100, 100, 0), m);
        assertEquals("steady", policy.decide(obs(10_000, 10, 900, 900, 0), m).code());
        assertEquals("idle-wait", policy.decide(obs(40_000, 10, 100, 100, 0), m).code(), "idleness starts over");
    }

    @Test
    void aSteadyPipelineWithinTargetTakesNoAction() {
        PolicyMemory m = new PolicyMemory();
        m.learnCapacity(100);
        for (int i = 0; i < 120; i++) {
            Decision d = policy.decide(obs(i * 5_000L, 4, 300, 300, 50), m);
            assertEquals(Decision.Action.NONE, d.action(), d.reason());
        }
    }

    @Test
    void boundsAreEnforced() {
        assertEquals(
                Decision.Action.SCALE_DOWN,
                policy.decide(obs(0, 25, 10, 10, 0), new PolicyMemory()).action());
        AutoscalePolicy min3 = new AutoscalePolicy(3, 20, 5.0, null, null, null, null, null, null, null);
        Decision up = new RatioScalingRule(min3, 5_000).decide(obs(0, 1, 10, 10, 0), new PolicyMemory());
        assertEquals(3, up.toTasks());
    }

    @Test
    void badPoliciesNameTheirField() {
        assertEquals("maxTasks", field(new AutoscalePolicy(null, null, 5.0, null, null, null, null, null, null, null)));
        assertEquals("maxTasks", field(new AutoscalePolicy(4, 2, 5.0, null, null, null, null, null, null, null)));
        assertEquals("minTasks", field(new AutoscalePolicy(0, 2, 5.0, null, null, null, null, null, null, null)));
        assertEquals(
                "targetLatencySeconds",
                field(new AutoscalePolicy(1, 2, null, null, null, null, null, null, null, null)));
        assertEquals(
                "targetLatencySeconds",
                field(new AutoscalePolicy(1, 2, 5.0, 100L, null, null, null, null, null, null)));
        assertEquals(
                "targetLatencySeconds",
                field(new AutoscalePolicy(1, 2, -1.0, null, null, null, null, null, null, null)));
        assertEquals("targetLag", field(new AutoscalePolicy(1, 2, null, -1L, null, null, null, null, null, null)));
        assertEquals(
                "cooldownSeconds", field(new AutoscalePolicy(1, 2, 5.0, null, 10.0, null, null, null, null, null)));
        assertEquals(
                "scaleDownIdleFraction",
                field(new AutoscalePolicy(1, 2, 5.0, null, null, 1.0, null, null, null, null)));
        assertEquals("utilization", field(new AutoscalePolicy(1, 2, 5.0, null, null, null, 1.5, null, null, null)));
        assertEquals("drainSeconds", field(new AutoscalePolicy(1, 2, 5.0, null, null, null, null, 0.0, null, null)));
        assertEquals(
                "targetLagSeconds", field(new AutoscalePolicy(1, 2, null, null, null, null, null, null, null, 0.0)));
        assertEquals(
                "targetLagSeconds",
                field(new AutoscalePolicy(1, 2, 5.0, null, null, null, null, null, null, Double.NaN)));
        assertEquals(
                "targetLatencySeconds or targetLag or targetLagSeconds is required",
                assertThrows(
                                InvalidInputException.class,
                                new AutoscalePolicy(1, 2, null, null, null, null, null, null, null, null)::validated)
                        .getMessage());
    }

    /** An age target of 30 s beside a lag target of 100,000 records. */
    private static final AutoscalePolicy AGE =
            new AutoscalePolicy(1, 20, null, 100_000L, null, null, null, null, null, 30.0);

    private static Observation aged(int tasks, double append, double sink, long lag, double lagSeconds) {
        return new Observation(
                0, tasks, tasks, 20, append, sink, lag, true, List.of(), List.of(), false, lagSeconds, null, null);
    }

    @Test
    void anAgeAboveItsTargetScalesUpThoughTheLagInRecordsIsWithinItsOwn() {
        // 400/s arrive, 1 task consumes 100/s; 9,000 records waiting are far under 100,000 but 45 s old
        Decision d = new RatioScalingRule(AGE, 5_000).decide(aged(1, 400, 100, 9_000, 45), new PolicyMemory());
        assertEquals(Decision.Action.SCALE_UP, d.action(), d.reason());
        assertEquals(5, d.toTasks(), "400/s at 80% of 100/s: " + d.reason());
        assertTrue(d.reason().startsWith("lag age 45 s above targetLagSeconds 30"), d.reason());
        assertEquals(
                Decision.Action.NONE,
                new RatioScalingRule(AGE, 5_000)
                        .decide(aged(1, 400, 100, 9_000, 20), new PolicyMemory())
                        .action(),
                "within both targets");
    }

    @Test
    void anAgeTheRatesCannotExplainIsNotMetWithMoreTasks() {
        // 4 tasks serve the 100/s appended and 50 records wait, yet one waits 120 s: a stalled partition, not too few
        // tasks
        AutoscalePolicy ageOnly = new AutoscalePolicy(1, 20, null, null, null, null, null, null, null, 30.0);
        PolicyMemory m = new PolicyMemory();
        m.learnCapacity(100);
        Decision d = new RatioScalingRule(ageOnly, 5_000).decide(aged(4, 100, 100, 50, 120), m);
        assertEquals(Decision.Action.NONE, d.action(), d.reason());
        assertEquals("age", d.code(), d.reason());
    }

    private static String field(AutoscalePolicy p) {
        return assertThrows(InvalidInputException.class, p::validated).field();
    }
}
