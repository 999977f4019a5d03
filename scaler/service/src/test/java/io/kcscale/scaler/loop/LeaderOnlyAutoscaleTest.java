package io.kcscale.scaler.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.StoredPolicy;
import io.kcscale.scaler.scale.ScaleResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Replicas sharing one store: only the lease in force acts, a nominee waits out the lease in force, a deposed
 * leader's writes do not count, nothing is applied twice.
 */
class LeaderOnlyAutoscaleTest {

    private static final AutoscalePolicy POLICY =
            new AutoscalePolicy(1, 20, 5.0, null, null, null, null, null, null, null);

    private final InMemoryPolicyStore store = new InMemoryPolicyStore();
    /** tasks.max as Connect holds it, which each scale sets. */
    private final AtomicInteger tasksMax = new AtomicInteger(1);

    private final List<String> scales = new ArrayList<>();

    /** One machine's monotonic clock, which the test moves. */
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    private LeaderLease lease(String id, AtomicBoolean nominated) {
        return new LeaderLease(id, nominated::get, store, LeaderLease.DURATION, nanos::get);
    }

    /** Time passes beyond a lease's duration. */
    private void lapse() {
        nanos.addAndGet(LeaderLease.DURATION.plusMillis(1).toNanos());
    }

    private AutoscaleLoop replica(LeaderLease leadership) {
        return new AutoscaleLoop(
                c -> Optional.of(BackloggedSink.snapshot(tasksMax.get())),
                (c, request, fence) -> {
                    fence.beforeWrite("PATCH tasks.max", Duration.ofSeconds(3));
                    scales.add(leadership.instanceId() + " -> " + request.tasks());
                    int before = tasksMax.getAndSet(request.tasks());
                    return new ScaleResult(
                            c, before, request.tasks(), request.tasks(), 0.5, false, "plan", List.of(), null);
                },
                store,
                leadership,
                c -> List.of(),
                5_000,
                Duration.ofMinutes(5),
                () -> 1_000_000);
    }

    @Test
    void onlyTheLeaseInForceActsAndADeposedLeaderChangesNothing() {
        AtomicBoolean aNominated = new AtomicBoolean(true);
        AtomicBoolean bNominated = new AtomicBoolean();
        LeaderLease a = lease("a", aNominated);
        LeaderLease b = lease("b", bNominated);
        AutoscaleLoop first = replica(a);
        AutoscaleLoop second = replica(b);
        second.put("sink", POLICY);

        b.tick();
        a.tick();
        second.evaluateAll();
        first.evaluateAll();
        assertEquals(List.of("a -> 9"), scales, "the follower decides but does not act");
        assertTrue(first.leads());
        assertFalse(second.leads());
        assertEquals(Optional.of("a"), second.leaderId());
        DecisionRecord applied = second.state("sink").orElseThrow().decisions().get(0);
        assertTrue(applied.outcome().startsWith("applied: 9 tasks RUNNING"), applied.toString());
        assertEquals(
                Optional.of(9),
                second.latestRecommendedTasks("sink"),
                "a follower decides too, for its recommendation");

        // the group nominates b (a frozen, say, and dropped): b claims only once a's lease lapsed as b saw it
        bNominated.set(true);
        b.tick();
        assertFalse(second.leads(), "a's lease still holds: b waits it out");
        lapse();
        b.tick();
        assertTrue(second.leads());
        second.evaluateAll();
        assertEquals(List.of("a -> 9"), scales, "b holds in the cooldown of a's scale: not applied twice");
        second.put("sink", new AutoscalePolicy(1, 19, 5.0, null, null, null, null, null, null, null));
        tasksMax.set(1);
        first.evaluateAll();
        assertEquals(List.of("a -> 9"), scales, "a, deposed but unaware, does not act");
        assertFalse(first.leads());
        Lease deposed = new Lease("a", 1);
        assertThrows(
                WriteFence.Lapsed.class,
                () -> a.fence(deposed).beforeWrite("PATCH tasks.max", Duration.ofSeconds(3)),
                "nor would its fence let a write of its own through");
        second.evaluateAll();
        assertEquals(List.of("a -> 9", "b -> 9"), scales);
        a.tick();
        assertFalse(first.leads(), "a let go once it saw b's claim");

        assertTrue(first.latestRecommendedTasks("sink").isPresent());
        assertTrue(second.remove("sink"));
        assertEquals(
                Optional.empty(), first.latestRecommendedTasks("sink"), "the DELETE through b ends a's gauge at once");
    }

    @Test
    void aDecisionALeaderStoppedApplyingIsSettledFromConnectNotAppliedAgain() {
        StoredPolicy p = store.put("sink", POLICY);
        Lease gone = new Lease("gone", 1);
        assertTrue(store.claim(gone, LeaderLease.DURATION.toMillis()));
        Decision d = new Decision(999_000, Decision.Action.SCALE_UP, 1, 9, "ratio", "backlog", DecisionInputs.NONE);
        assertTrue(store.recordDecisions(
                "sink", p.version(), gone, List.of(new DecisionRecord(d, AutoscaleLoop.APPLYING))));
        tasksMax.set(9);

        LeaderLease next = lease("next", new AtomicBoolean(true));
        next.tick();
        lapse();
        next.tick();
        replica(next).evaluateAll();

        assertEquals(List.of(), scales, "never applied a second time");
        DecisionRecord settled = store.policy("sink").orElseThrow().decisions().get(0);
        assertEquals(d.atMillis(), settled.decision().atMillis());
        assertTrue(settled.outcome().startsWith("applied: tasks.max is 9"), settled.outcome());
        assertEquals(1, store.policy("sink").orElseThrow().decisions().size(), "the outcome replaces the intent");
    }
}
