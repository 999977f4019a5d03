package io.kcscale.scaler.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RecommendationTest {

    private static final AutoscaleSettings SETTINGS = new AutoscaleSettings(1, 20, 5.0, null, null, null, null, null, null, null);
    private final RatioScalingPolicy policy = new RatioScalingPolicy(SETTINGS, 5_000);

    private static Observation obs(long at, int tasks, double append, double sink, long lag, List<String> blocking) {
        return new Observation(at, tasks, tasks, 20, append, sink, lag, true, List.of(), blocking, false, null);
    }

    @Test
    void aScaleUpRecommendsItsTarget() {
        Decision d = policy.decide(obs(0, 1, 400, 100, 30_000, List.of()), new PolicyMemory());
        Recommendation r = Recommendation.of("sink", d, List.of()).orElseThrow();
        assertEquals(9, r.tasks(), d.reason());
        assertEquals(d.reason(), r.reason());
        assertTrue(r.blockedBy().isEmpty());
    }

    @Test
    void aBlockedPolicyRecommendsTheTasksNowAndNamesTheChecks() {
        List<String> blocking = List.of("key-cardinality: 2 distinct keys feed the topic");
        Decision d = policy.decide(obs(0, 2, 400, 100, 30_000, blocking), new PolicyMemory());
        assertEquals(Decision.Action.BLOCKED, d.action());
        Recommendation r = Recommendation.of("sink", d, blocking).orElseThrow();
        assertEquals(2, r.tasks());
        assertEquals(blocking, r.blockedBy());
        assertTrue(r.reason().startsWith("more tasks cannot help"), r.reason());
    }

    @Test
    void anUnobservedConnectorHasNoRecommendation() {
        Decision unobserved = new Decision(0, Decision.Action.HOLD, -1, -1, "unobserved", "sink is not observed (yet)", Map.of());
        assertTrue(Recommendation.of("sink", unobserved, List.of()).isEmpty());
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
