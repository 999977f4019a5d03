package io.kcscale.scaler.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.PolicyView;
import io.kcscale.scaler.autoscale.StateRecord;
import io.kcscale.scaler.autoscale.StoredPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The state topic's records: this format round trips, the previous ones are read, a newer one is skipped. */
class StateRecordCodecTest {

    /**
     * Records as format 1 wrote them (no format header): the bytes its codec produced for a policy, a pause, a claim
     * and decisions (an applied scale and, before it, a hold on a connector not observed), at offsets 0 to 3.
     */
    private static final List<Map.Entry<String, String>> FORMAT_1 = List.of(
            Map.entry(
                    "policy/stocks-es-sink",
                    "{\"minTasks\":2,\"maxTasks\":6,\"targetLatencySeconds\":null,\"targetLag\":50000,"
                            + "\"cooldownSeconds\":null,\"scaleDownIdleFraction\":0.75,\"utilization\":0.8,"
                            + "\"drainSeconds\":60.0,\"dryRun\":false,\"targetLagSeconds\":30.0}"),
            Map.entry("pause/stocks-es-sink", "{\"policyVersion\":0}"),
            Map.entry("leader", "{\"leaderId\":\"scaler-1f2e\",\"generation\":3}"),
            Map.entry(
                    "decisions/stocks-es-sink",
                    "{\"leaderId\":\"scaler-1f2e\",\"generation\":3,\"policyVersion\":0,\"decisions\":[{\"decision\":"
                            + "{\"atMillis\":1767225600000,\"action\":\"SCALE_UP\",\"fromTasks\":2,\"toTasks\":4,"
                            + "\"code\":\"ratio\",\"reason\":\"backlog 120000 above 50000\",\"inputs\":{\"lag\":120000}},"
                            + "\"outcome\":\"applied: 4 tasks RUNNING, pause 1.2 s\"},{\"decision\":"
                            + "{\"atMillis\":1767225590000,\"action\":\"HOLD\",\"fromTasks\":-1,\"toTasks\":-1,"
                            + "\"code\":\"unobserved\",\"reason\":\"stocks-es-sink is not observed (yet)\",\"inputs\":{}},"
                            + "\"outcome\":\"none\"}]}"));

    /**
     * Decisions as format 2 wrote them (its codec's bytes): a hold on a connector not observed, with -1 tasks and no
     * inputs, and a scale-up whose inputs were a map holding a null and a "NaN" for what was not known.
     */
    private static final String FORMAT_2_DECISIONS = "{\"leaderId\":\"scaler-1f2e\",\"epoch\":4,\"policyVersion\":0,"
            + "\"decisions\":[{\"decision\":{\"atMillis\":1767225660000,\"action\":\"HOLD\",\"fromTasks\":-1,"
            + "\"toTasks\":-1,\"code\":\"unobserved\",\"reason\":\"stocks-es-sink is not observed (yet)\","
            + "\"inputs\":{}},\"outcome\":\"none\"},{\"decision\":{\"atMillis\":1767225600000,\"action\":\"SCALE_UP\","
            + "\"fromTasks\":2,\"toTasks\":4,\"code\":\"lag\",\"reason\":\"lag 120000 above target 50000\","
            + "\"inputs\":{\"tasks\":2,\"tasksRunning\":2,\"tasksWithPartitionsAtMost\":6,\"appendRate\":950.5,"
            + "\"sinkRate\":400.0,\"perTaskRate\":200.0,\"lag\":120000,\"allowedLag\":50000.0,\"lagSeconds\":95.0,"
            + "\"targetLagSeconds\":30.0,\"latencySeconds\":null,\"cooldownSeconds\":60.0,\"stable\":true,"
            + "\"findings\":[],\"capacityFrom\":\"busy time\",\"perTaskCapacity\":250.0,"
            + "\"trueProcessingRate\":\"NaN\",\"desiredTasks\":4}},"
            + "\"outcome\":\"applied: 4 tasks RUNNING, pause 1.2 s\"}]}";

    private static StateRecord decode(String key, String value, int format) throws IOException {
        return StateRecordCodec.decode(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8), format)
                .orElseThrow(() -> new AssertionError("not read: " + key));
    }

    @Test
    void recordsOfThePreviousFormatAreReadWithTheirLeaseAndANewClaimSupersedesIt() throws IOException {
        assertEquals(1, StateRecordCodec.format(null), "no header: the previous format");
        PolicyView view = new PolicyView();
        long offset = 0;
        for (Map.Entry<String, String> r : FORMAT_1) {
            assertTrue(view.apply(offset++, decode(r.getKey(), r.getValue(), 1)), "counted: " + r.getKey());
        }
        assertEquals(
                new StateRecord.Claim(new Lease("scaler-1f2e", 3), 10_000),
                decode("leader", FORMAT_1.get(2).getValue(), 1),
                "its generation is its epoch; it held as long as the group took to drop a silent leader");
        StoredPolicy p = view.policy("stocks-es-sink").orElseThrow();
        assertEquals(new AutoscalePolicy(2, 6, null, 50_000L, null, 0.75, 0.8, 60.0, false, 30.0).paused(), p.policy());
        assertEquals(2, p.decisions().size(), "decisions under the format-1 lease in force");
        assertEquals(
                "applied: 4 tasks RUNNING, pause 1.2 s", p.decisions().get(0).outcome());
        assertEquals(4, p.decisions().get(0).decision().toTasks());
        assertEquals(120_000L, p.decisions().get(0).decision().inputs().lag(), "its map of inputs, typed");
        assertNull(p.decisions().get(1).decision().toTasks(), "-1: no tasks known");
        assertEquals(Optional.of(new Lease("scaler-1f2e", 3)), view.leader());

        assertTrue(view.apply(offset, new StateRecord.Claim(new Lease("next", 4), 12_000)));
        assertEquals(Optional.of(new Lease("next", 4)), view.leader());
    }

    @Test
    void decisionsOfFormat2AreReadWithTheirUnknownsAbsent() throws IOException {
        StateRecord.Decisions r = (StateRecord.Decisions) decode("decisions/stocks-es-sink", FORMAT_2_DECISIONS, 2);
        assertEquals(new Lease("scaler-1f2e", 4), r.lease());
        Decision unobserved = r.decisions().get(0).decision();
        assertEquals(Decision.unobserved(1767225660000L, "stocks-es-sink is not observed (yet)"), unobserved);
        Decision up = r.decisions().get(1).decision();
        assertEquals(2, up.fromTasks());
        assertEquals(4, up.toTasks());
        assertEquals(120_000L, up.inputs().lag());
        assertEquals(950.5, up.inputs().appendRate());
        assertEquals(DecisionInputs.CapacitySource.BUSY_TIME, up.inputs().capacityFrom());
        assertEquals(List.of(), up.inputs().findings());
        assertNull(up.inputs().latencySeconds(), "null: not known");
        assertNull(up.inputs().trueProcessingRate(), "\"NaN\": not known");
        String rewritten = new String(StateRecordCodec.value(r), StandardCharsets.UTF_8);
        assertFalse(rewritten.contains(":-1") || rewritten.contains("null") || rewritten.contains("NaN"), rewritten);
        assertEquals(
                Optional.of(r),
                StateRecordCodec.decode(StateRecordCodec.key(r), StateRecordCodec.value(r), 3),
                "written again in format 3, it reads back the same");
    }

    @Test
    void everyRecordOfThisFormatReadsBackAsWritten() throws IOException {
        Lease lease = new Lease("scaler-9a0b", 12);
        Decision d = new Decision(
                1,
                Decision.Action.SCALE_DOWN,
                4,
                2,
                "idle",
                "idle 90%",
                new DecisionInputs.Builder()
                        .idleFraction(0.9)
                        .capacityFrom(DecisionInputs.CapacitySource.BACKLOG)
                        .findings(List.of("key-cardinality: 2 distinct keys"))
                        .unreachableWorkers(Map.of("w1:8083", 5L))
                        .build());
        List<StateRecord> records = List.of(
                new StateRecord.PolicySet(
                        "s", new AutoscalePolicy(1, 6, 5.0, null, null, null, null, null, null, null)),
                new StateRecord.PolicyDeleted("s"),
                new StateRecord.Paused("s", 17),
                new StateRecord.Decisions(
                        "s",
                        17,
                        lease,
                        List.of(
                                new DecisionRecord(d, "dry run"),
                                new DecisionRecord(Decision.unobserved(0, "s is not observed (yet)"), "none"))),
                new StateRecord.Claim(lease, 12_000),
                new StateRecord.Renewal(lease, 15_000),
                new StateRecord.Release(lease));
        for (StateRecord r : records) {
            byte[] value = StateRecordCodec.value(r);
            assertEquals(
                    Optional.of(r),
                    StateRecordCodec.decode(
                            StateRecordCodec.key(r), value, StateRecordCodec.format(StateRecordCodec.formatHeader(r))),
                    StateRecordCodec.key(r));
        }
        assertEquals(
                List.of(2, 2, 2, 3, 2, 2, 2),
                records.stream()
                        .map(r -> StateRecordCodec.format(StateRecordCodec.formatHeader(r)))
                        .toList(),
                "only decisions changed in format 3: a replica of format 2 reads the rest");
        assertEquals("leader", StateRecordCodec.key(records.get(4)), "claims keep their own key");
        assertEquals("lease", StateRecordCodec.key(records.get(5)), "renewals and releases share one");
        assertEquals("lease", StateRecordCodec.key(records.get(6)));
    }

    @Test
    void aRecordOfANewerOrUnreadableFormatIsSkipped() throws IOException {
        byte[] policy = FORMAT_1.get(0).getValue().getBytes(StandardCharsets.UTF_8);
        assertEquals(Optional.empty(), StateRecordCodec.decode("policy/s", policy, StateRecordCodec.FORMAT + 1));
        assertEquals(-1, StateRecordCodec.format("two".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Optional.empty(), StateRecordCodec.decode("policy/s", policy, -1));
        assertEquals(
                Optional.empty(),
                StateRecordCodec.decode(
                        "lease", "{\"leaderId\":\"a\",\"epoch\":1}".getBytes(StandardCharsets.UTF_8), 1),
                "format 1 had no lease key");
    }
}
