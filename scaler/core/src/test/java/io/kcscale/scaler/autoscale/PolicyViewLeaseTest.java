package io.kcscale.scaler.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The lease as the shared log orders it: epochs that only grow, renewals and releases of the lease in force only. */
class PolicyViewLeaseTest {

    private static final AutoscalePolicy POLICY =
            new AutoscalePolicy(1, 6, 5.0, null, null, null, null, null, null, null);

    private final PolicyView view = new PolicyView();
    private long offset;

    private boolean apply(StateRecord r) {
        return view.apply(offset++, r);
    }

    @Test
    void aClaimCountsOnlyAboveTheEpochInForceSoTheFirstOfTwoRacingClaimsWins() {
        assertTrue(apply(new StateRecord.Claim(new Lease("a", 7), 12_000)), "the first claim, whatever its epoch");
        assertTrue(apply(new StateRecord.Claim(new Lease("b", 8), 12_000)));
        assertFalse(
                apply(new StateRecord.Claim(new Lease("c", 8), 12_000)), "c read the same state as b: b came first");
        assertFalse(apply(new StateRecord.Claim(new Lease("a", 7), 12_000)), "a deposed leader's late claim");
        assertEquals(Optional.of(new Lease("b", 8)), view.leader());
        assertTrue(view.leaseWrittenAt(1));
    }

    @Test
    void aRenewalCountsForTheLeaseInForceOnlyAndEveryCountedLeaseRecordMovesTheCount() {
        Lease a = new Lease("a", 1);
        apply(new StateRecord.Claim(a, 12_000));
        long claimed = view.leaseTerm().orElseThrow().records();
        assertTrue(apply(new StateRecord.Renewal(a, 15_000)));
        assertEquals(
                new LeaseTerm(a, 15_000, false, claimed + 1), view.leaseTerm().orElseThrow());
        assertFalse(apply(new StateRecord.Renewal(new Lease("b", 1), 12_000)), "a lease never claimed");
        apply(new StateRecord.Claim(new Lease("b", 2), 12_000));
        assertFalse(apply(new StateRecord.Renewal(a, 12_000)), "a superseded lease");
        assertEquals(claimed + 2, view.leaseTerm().orElseThrow().records(), "refused records move nothing");
        assertFalse(view.leaseWrittenAt(offset - 1));
    }

    @Test
    void aReleasedLeaseLeadsNoMoreItsDecisionsDoNotCountAndTheNextEpochFollowsIt() {
        StoredPolicy p = storedPolicy();
        Lease a = new Lease("a", 4);
        apply(new StateRecord.Claim(a, 12_000));
        assertFalse(apply(new StateRecord.Release(new Lease("a", 3))), "only the lease in force is released");
        assertTrue(apply(new StateRecord.Release(a)));
        assertEquals(Optional.empty(), view.leader());
        assertTrue(view.leaseTerm().orElseThrow().released());
        assertFalse(apply(new StateRecord.Renewal(a, 12_000)), "released for good");
        assertFalse(apply(new StateRecord.Decisions("sink", p.version(), a, List.of())), "no writes under it");
        assertFalse(apply(new StateRecord.Claim(new Lease("b", 4), 12_000)), "an epoch must still grow");
        assertTrue(apply(new StateRecord.Claim(new Lease("b", 5), 12_000)));
        assertTrue(apply(new StateRecord.Decisions("sink", p.version(), new Lease("b", 5), List.of())));
    }

    private StoredPolicy storedPolicy() {
        long at = offset;
        apply(new StateRecord.PolicySet("sink", POLICY));
        return view.policy("sink").filter(s -> s.version() == at).orElseThrow();
    }
}
