package io.kcscale.scaler.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.rules.RatioScalingRule;
import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecommendationFromDecisionTest {

    private static final AutoscalePolicy SETTINGS =
            new AutoscalePolicy(1, 20, 5.0, null, null, null, null, null, null, null);
    private final RatioScalingRule policy = new RatioScalingRule(SETTINGS, 5_000);

    private static Observation obs(long at, int tasks, double append, double sink, long lag, List<String> blocking) {
        return new Observation(
                at, tasks, tasks, 20, append, sink, lag, true, List.of(), blocking, false, null, null, null);
    }

    @Test
    void aScaleUpRecommendsItsTarget() {
        Decision d = policy.decide(obs(0, 1, 400, 100, 30_000, List.of()), new PolicyMemory());
        Recommendation r = Recommendation.of("sink", d, 4, List.of()).orElseThrow();
        assertEquals(9, r.tasks(), d.reason());
        assertEquals(3, r.workers(), "9 tasks at 4 per worker fill two workers and part of a third");
        assertEquals(4, r.tasksPerWorker());
        assertEquals(d.reason(), r.reason());
        assertTrue(r.blockedBy().isEmpty());
    }

    @Test
    void aBlockedPolicyRecommendsTheTasksNowAndNamesTheChecks() {
        List<String> blocking = List.of("key-cardinality: 2 distinct keys feed the topic");
        Decision d = policy.decide(obs(0, 2, 400, 100, 30_000, blocking), new PolicyMemory());
        assertEquals(Decision.Action.BLOCKED, d.action());
        Recommendation r = Recommendation.of("sink", d, 4, blocking).orElseThrow();
        assertEquals(2, r.tasks());
        assertEquals(1, r.workers());
        assertEquals(blocking, r.blockedBy());
        assertTrue(r.reason().startsWith("more tasks cannot help"), r.reason());
    }

    @Test
    void tasksPerWorkerIsThePlacedTasksOverTheirWorkersRoundedUp() {
        assertEquals(1, Recommendation.tasksPerWorker(List.of()), "nothing placed: a worker per task");
        assertEquals(1, Recommendation.tasksPerWorker(List.of(task(0, null))), "unassigned tasks count for nothing");
        assertEquals(2, Recommendation.tasksPerWorker(List.of(task(0, "w1"), task(1, "w1"), task(2, "w2"))));
        assertEquals(
                3, Recommendation.tasksPerWorker(List.of(task(0, "w1"), task(1, "w1"), task(2, "w1"), task(3, null))));
        assertEquals(1, Recommendation.tasksPerWorker(List.of(task(0, "w1"), task(1, "w2"))));
    }

    private static PipelineSnapshot.Task task(int id, String worker) {
        return PipelineSnapshot.Task.of(id, "RUNNING", worker, Map.of("t", List.of(id)), null, false, null, null);
    }

    @Test
    void anUnobservedConnectorHasNoRecommendation() {
        Decision unobserved = Decision.unobserved(0, "sink is not observed (yet)");
        assertTrue(Recommendation.of("sink", unobserved, 4, List.of()).isEmpty());
    }

    @Test
    void decidingOnACopyLeavesThePolicysMemoryAsItWas() {
        PolicyMemory memory = new PolicyMemory();
        Observation first = obs(0, 1, 130, 100, 600, List.of());
        policy.decide(first, memory);
        memory.recordAction(1_000, 1, 2, 4.0);
        PolicyMemory copy = memory.copy();
        policy.decide(obs(60_000, 2, 400, 100, 30_000, List.of()), copy);
        assertEquals(first, memory.lastObservation(), "the recommendation must not count as an evaluation");
        assertTrue(Double.isNaN(memory.perTaskCapacity()), "nor teach the policy a capacity");
        assertEquals(4.0, copy.lastPauseSeconds());
        assertEquals(2, copy.tasksAfterLastAction());
    }
}
