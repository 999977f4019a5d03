package io.kcscale.scaler.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.autoscale.AutoscaleEvaluator;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.scale.ScaleResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The live loop decides as the evaluator the simulator and the live benchmark (through the facade) call: the same
 * snapshots at the same times give the same decisions, holds included, and nothing else decides in between.
 */
class OneDecisionPathTest {

    private static final Duration DELAY = Duration.ofMinutes(5);
    private static final AutoscalePolicy POLICY =
            new AutoscalePolicy(1, 8, null, 2_000L, null, null, null, null, true, null);

    private static PipelineSnapshot snapshot(
            long lag, boolean stable, List<String> reasons, Map<String, Long> silentWorkers, String... states) {
        List<PipelineSnapshot.Task> tasks = new ArrayList<>();
        for (int i = 0; i < states.length; i++) {
            tasks.add(PipelineSnapshot.Task.of(
                    i, states[i], "w" + i + ":8083", Map.of("t", List.of(i)), 100.0, false, 1.0, 0.5));
        }
        return new PipelineSnapshot(
                "sink",
                List.of("t"),
                states.length,
                20,
                Map.of("t", 20),
                "range",
                tasks,
                new PipelineSnapshot.Lag(lag, Map.of(), Map.of("t", Map.of()), null, null, null, List.of(), lag, null),
                new PipelineSnapshot.Rates(400.0, 100.0 * states.length, 100.0, Map.of(), Map.of("t", Map.of())),
                null,
                stable,
                reasons,
                new PipelineSnapshot.Elasticsearch("i", 1, 0, 1, 0.0, 0),
                null,
                false,
                List.of(),
                silentWorkers,
                1.0,
                30,
                0);
    }

    /** The one replica, leading from its first tick. */
    private static LeaderLease leader(InMemoryPolicyStore store) {
        LeaderLease lease = new LeaderLease("a", () -> true, store, LeaderLease.DURATION, () -> 1_000_000_000L);
        lease.tick();
        return lease;
    }

    /** What the scaler sees, a snapshot every 5 s: holds of each kind, then a backlog one step sizes. */
    private static final List<Optional<PipelineSnapshot>> SEEN = List.of(
            Optional.empty(),
            Optional.of(snapshot(30_000, false, List.of("worker w0:8083 ..."), Map.of("w0:8083", 12L), "RUNNING")),
            Optional.of(snapshot(30_000, false, List.of("task 0 is UNASSIGNED"), Map.of(), "UNASSIGNED")),
            Optional.of(snapshot(30_000, false, List.of("task 0 is FAILED"), Map.of(), "FAILED")),
            Optional.of(snapshot(30_000, true, List.of(), Map.of(), "RUNNING")),
            Optional.of(snapshot(31_000, true, List.of(), Map.of(), "RUNNING")));

    @Test
    void theLiveLoopRecordsWhatTheEvaluatorDecidesFromTheSameSnapshots() {
        AtomicReference<Optional<PipelineSnapshot>> now = new AtomicReference<>(Optional.empty());
        AtomicLong clock = new AtomicLong(0);
        InMemoryPolicyStore store = new InMemoryPolicyStore();
        LeaderLease lease = leader(store);
        AutoscaleLoop loop = new AutoscaleLoop(
                c -> now.get(),
                (c, request, fence) -> {
                    throw new AssertionError("a dry run writes nothing");
                },
                store,
                lease,
                c -> List.of(),
                5_000,
                DELAY,
                clock::get);
        loop.put("sink", POLICY);

        AutoscaleEvaluator evaluator = new AutoscaleEvaluator(DELAY);
        ScalingRule rule = ScalingRules.create(ScalingRules.KCSCALE, POLICY, 5_000);
        PolicyMemory memory = new PolicyMemory();
        List<String> expected = new ArrayList<>();
        for (Optional<PipelineSnapshot> s : SEEN) {
            clock.addAndGet(5_000);
            now.set(s);
            loop.evaluateAll();
            Decision d = evaluator.evaluate("sink", s, List.of(), rule, memory, clock.get());
            String verdict = d.action() + " " + d.code() + " -> " + d.toTasks();
            if (expected.isEmpty() || !expected.get(expected.size() - 1).equals(verdict)) {
                expected.add(verdict);
            }
        }
        List<String> recorded = new ArrayList<>();
        loop.state("sink")
                .orElseThrow()
                .decisions()
                .forEach(r -> recorded.add(
                        0,
                        r.decision().action() + " " + r.decision().code() + " -> "
                                + r.decision().toTasks()));
        assertEquals(
                List.of(
                        "HOLD unobserved -> null",
                        "HOLD worker-unreachable -> 1",
                        "HOLD tasks-unassigned -> 1",
                        "HOLD unstable -> 1",
                        "SCALE_UP lag -> 8"),
                expected);
        assertEquals(expected, recorded, "the loop records each new verdict, as the evaluator gave it");
    }

    @Test
    void aScaleTheLoopAppliesIsTheEvaluatorsDecision() {
        AtomicLong clock = new AtomicLong(5_000);
        List<Integer> written = new ArrayList<>();
        InMemoryPolicyStore store = new InMemoryPolicyStore();
        LeaderLease lease = leader(store);
        PipelineSnapshot backlog = SEEN.get(4).orElseThrow();
        AutoscaleLoop loop = new AutoscaleLoop(
                c -> Optional.of(backlog),
                (c, request, fence) -> {
                    written.add(request.tasks());
                    return new ScaleResult(c, 1, request.tasks(), request.tasks(), 0.5, false, "plan", List.of(), null);
                },
                store,
                lease,
                c -> List.of(),
                5_000,
                DELAY,
                clock::get);
        AutoscalePolicy applied = new AutoscalePolicy(1, 8, null, 2_000L, null, null, null, null, false, null);
        loop.put("sink", applied);
        loop.evaluateAll();
        Decision d = new AutoscaleEvaluator(DELAY)
                .evaluate(
                        "sink",
                        Optional.of(backlog),
                        List.of(),
                        ScalingRules.create(ScalingRules.KCSCALE, applied, 5_000),
                        new PolicyMemory(),
                        clock.get());
        assertEquals(List.of(d.toTasks()), written);
    }
}
