package io.kcscale.scaler.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.connect.ConnectTasksMaxWriter;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.loop.AutoscaleLoop;
import io.kcscale.scaler.loop.BackloggedSink;
import io.kcscale.scaler.loop.InMemoryPolicyStore;
import io.kcscale.scaler.loop.LeaderLease;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.ports.PreScaleChecks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Two replicas, one Connect, one machine's clock: the leader is frozen inside a scale, after it recorded the
 * decision as applying and before its write (the pause injected through the scale's pre-checks port, where a key
 * sample of seconds runs). The group drops it, the other replica waits out its lease, leads and settles the intent
 * from what Connect holds; the frozen one resumes with a count still as it saw it, so only its lease stops it. Exactly
 * one write reaches Connect, the new leader's.
 */
class LeaderFrozenInScaleTest {

    private static final String SINK = "sink";
    private static final AutoscalePolicy POLICY =
            new AutoscalePolicy(1, 20, 5.0, null, null, null, null, null, null, null);

    private final InMemoryConnect connect = new InMemoryConnect(
            SINK, "sink", Map.of("connector.class", "CamelElasticsearchSink", "tasks.max", "1", "topics", "t"), 1);
    private final InMemoryPolicyStore store = new InMemoryPolicyStore();
    private final AtomicLong nanos = new AtomicLong(7_000_000_000L);
    /** The sink's index counter, growing on every read: the sink makes progress all along. */
    private final AtomicLong indexed = new AtomicLong();
    /** Every write to Connect that a replica's fence let through, by replica. */
    private final List<String> writes = Collections.synchronizedList(new ArrayList<>());

    /** The sink behind a growing backlog with as many tasks as Connect holds: the policy wants 9. */
    private PipelineSnapshot snapshot() {
        return BackloggedSink.snapshot(ConnectorChange.tasksMax(connect.config()));
    }

    private AutoscaleLoop replica(LeaderLease lease, PreScaleChecks checks) {
        ScaleAction action = new ScaleAction(
                connect,
                new ConnectTasksMaxWriter(connect),
                topic -> 20,
                index -> indexed.addAndGet(10),
                SinkIndexes.none(),
                c -> Optional.of(snapshot()),
                checks,
                ids -> Set.of(),
                20,
                Duration.ofSeconds(10),
                System::currentTimeMillis);
        return new AutoscaleLoop(
                c -> Optional.of(snapshot()),
                (c, request, fence) -> action.scale(c, request, (what, timeout) -> {
                    fence.beforeWrite(what, timeout);
                    writes.add(lease.instanceId() + ": " + what);
                }),
                store,
                lease,
                c -> List.of(),
                5_000,
                Duration.ofMinutes(5),
                () -> 1_000_000);
    }

    @Test
    void aLeaderFrozenAfterItsIntentSendsNothingOnceThawedAndTheDecisionIsAppliedOnceByTheNext() {
        AtomicBoolean aNominated = new AtomicBoolean(true);
        AtomicBoolean bNominated = new AtomicBoolean();
        LeaderLease a = new LeaderLease("a", aNominated::get, store, LeaderLease.DURATION, nanos::get);
        LeaderLease b = new LeaderLease("b", bNominated::get, store, LeaderLease.DURATION, nanos::get);
        AtomicBoolean frozen = new AtomicBoolean();
        AutoscaleLoop second = replica(b, (snapshot, tasks) -> List.of());
        AutoscaleLoop first = replica(a, (snapshot, tasks) -> {
            if (frozen.compareAndSet(false, true)) {
                // frozen a minute: the group drops a and nominates b, which waits out a's lease, then leads
                nanos.addAndGet(Duration.ofMinutes(1).toNanos());
                aNominated.set(false);
                bNominated.set(true);
                b.tick();
                assertTrue(second.leads(), "b leads once a's lease lapsed as b saw it");
                second.evaluateAll();
                DecisionRecord settled =
                        second.state(SINK).orElseThrow().decisions().get(0);
                assertEquals(
                        "not applied: the leader stopped while applying it; tasks.max is 1",
                        settled.outcome(),
                        "b settles a's intent from Connect, and does not apply it");
            }
            return List.of();
        });
        first.put(SINK, POLICY);
        a.tick();
        b.tick();

        first.evaluateAll();
        assertTrue(frozen.get(), "a was frozen inside its scale");
        assertEquals(List.of(), writes, "a, thawed with tasks.max still as it saw it, sent nothing");
        assertEquals("1", connect.config().get("tasks.max"));
        assertEquals(
                "not applied: the leader stopped while applying it; tasks.max is 1",
                second.state(SINK).orElseThrow().decisions().get(0).outcome(),
                "a's own outcome does not count: its lease is not the one in force");

        second.evaluateAll();
        assertEquals(List.of("b: PATCH sink"), writes, "the one write, by the leader");
        assertEquals("9", connect.config().get("tasks.max"));
        assertEquals(1, connect.puts);
        DecisionRecord applied = second.state(SINK).orElseThrow().decisions().get(0);
        assertTrue(applied.outcome().startsWith("applied: 9 tasks RUNNING"), applied.outcome());
    }
}
