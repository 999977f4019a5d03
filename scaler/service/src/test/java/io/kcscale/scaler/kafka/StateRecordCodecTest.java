package io.kcscale.scaler.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
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

/** The state topic's records: this format round trips, the previous one is read, a newer one is skipped. */
class StateRecordCodecTest {

    /**
     * Records as the previous format wrote them (no format header): the bytes its codec produced for a policy, a
     * pause, a claim and a decision, in this order at offsets 0 to 3.
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
                            + "\"outcome\":\"applied: 4 tasks RUNNING, pause 1.2 s\"}]}"));

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
        assertEquals(1, p.decisions().size(), "decisions under the format-1 lease in force");
        assertEquals(
                "applied: 4 tasks RUNNING, pause 1.2 s", p.decisions().get(0).outcome());
        assertEquals(4, p.decisions().get(0).decision().toTasks());
        assertEquals(Optional.of(new Lease("scaler-1f2e", 3)), view.leader());

        assertTrue(view.apply(offset, new StateRecord.Claim(new Lease("next", 4), 12_000)));
        assertEquals(Optional.of(new Lease("next", 4)), view.leader());
    }

    @Test
    void everyRecordOfThisFormatReadsBackAsWritten() throws IOException {
        Lease lease = new Lease("scaler-9a0b", 12);
        Decision d = new Decision(1, Decision.Action.SCALE_DOWN, 4, 2, "idle", "idle 90%", Map.of("idle", 0.9));
        List<StateRecord> records = List.of(
                new StateRecord.PolicySet(
                        "s", new AutoscalePolicy(1, 6, 5.0, null, null, null, null, null, null, null)),
                new StateRecord.PolicyDeleted("s"),
                new StateRecord.Paused("s", 17),
                new StateRecord.Decisions("s", 17, lease, List.of(new DecisionRecord(d, "dry run"))),
                new StateRecord.Claim(lease, 12_000),
                new StateRecord.Renewal(lease, 15_000),
                new StateRecord.Release(lease));
        for (StateRecord r : records) {
            byte[] value = StateRecordCodec.value(r);
            assertEquals(
                    Optional.of(r),
                    StateRecordCodec.decode(
                            StateRecordCodec.key(r), value, StateRecordCodec.format(StateRecordCodec.formatHeader())),
                    StateRecordCodec.key(r));
        }
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
