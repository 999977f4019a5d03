package io.kcscale.scaler.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.LeaseTerm;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lease on one machine's clock, which the test moves: a nominee waits out the lease in force, from any history;
 * the holder renews, lets go when superseded, and its fence stops a write its lease would not outlast.
 */
class LeaderLeaseTest {

    private static final Duration WRITE = Duration.ofSeconds(3);

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final InMemoryPolicyStore store = new InMemoryPolicyStore();

    private LeaderLease lease(String id, AtomicBoolean nominated) {
        return new LeaderLease(id, nominated::get, store, LeaderLease.DURATION, nanos::get);
    }

    private void pass(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void theFirstNomineeLeadsAtOnceAndRenewsWhileItHolds() {
        LeaderLease a = lease("a", new AtomicBoolean(true));
        a.tick();
        assertEquals(Optional.of(new Lease("a", 1)), a.lease(), "nobody held a lease: no wait");
        long records = store.leaseTerm().orElseThrow().records();
        for (int i = 0; i < 10; i++) {
            pass(LeaderLease.RENEW_EVERY);
            a.tick();
        }
        assertEquals(records + 10, store.leaseTerm().orElseThrow().records(), "a renewal every RENEW_EVERY");
        assertEquals(Optional.of(new Lease("a", 1)), a.lease(), "held far past one duration by its renewals");
    }

    @Test
    void aNomineeWaitsOutTheLeaseInForceWhateverEpochTheGroupHadAndClaimsTheNext() {
        // a dead leader's lease, of a group that was deleted since (its generations reached 41)
        assertTrue(store.claim(new Lease("dead", 41), LeaderLease.DURATION.toMillis()));
        LeaderLease fresh = lease("fresh", new AtomicBoolean(true));
        fresh.tick();
        assertEquals(Optional.empty(), fresh.lease(), "the dead one may still write, for all this replica knows");
        pass(LeaderLease.DURATION.minusMillis(1));
        fresh.tick();
        assertEquals(Optional.empty(), fresh.lease());
        pass(Duration.ofMillis(2));
        fresh.tick();
        assertEquals(Optional.of(new Lease("fresh", 42)), fresh.lease());
        assertEquals(Optional.of(new Lease("fresh", 42)), store.leader());
    }

    @Test
    void aLeaseStillRenewedIsNotTakenAndAReleasedOneIsTakenAtOnce() {
        AtomicBoolean aNominated = new AtomicBoolean(true);
        LeaderLease a = lease("a", aNominated);
        a.tick();
        AtomicBoolean bNominated = new AtomicBoolean(true);
        LeaderLease b = lease("b", bNominated);
        for (int i = 0; i < 12; i++) {
            pass(LeaderLease.RENEW_EVERY);
            a.tick();
            b.tick();
        }
        assertEquals(Optional.empty(), b.lease(), "a nominee that is wrong about the holder waits while it renews");
        assertEquals(Optional.of(new Lease("a", 1)), a.lease());

        pass(WRITE.plusMillis(1));
        a.close();
        b.tick();
        assertEquals(Optional.of(new Lease("b", 2)), b.lease(), "released: claimed without a wait");
    }

    @Test
    void theFenceStopsAWriteTheLeaseWouldNotOutlastAndEveryWriteOfADeposedHolder() {
        LeaderLease a = lease("a", new AtomicBoolean(true));
        a.tick();
        Lease held = a.lease().orElseThrow();
        WriteFence fence = a.fence(held);
        fence.beforeWrite("PATCH", WRITE);

        // Kafka stops taking the renewals: the lease runs out on a's own clock
        store.refuseWrites = true;
        pass(LeaderLease.DURATION.minus(WRITE));
        a.tick();
        WriteFence.Lapsed late = assertThrows(WriteFence.Lapsed.class, () -> fence.beforeWrite("PATCH", WRITE));
        assertTrue(late.getMessage().contains("holds 3.0 s more, not the 3.0 s the write may take"), late.getMessage());
        fence.beforeWrite("a quick write", WRITE.minusMillis(10));
        pass(WRITE);
        assertEquals(Optional.empty(), a.lease(), "lapsed");

        store.refuseWrites = false;
        a.tick();
        assertEquals(Optional.of(held), a.lease(), "a renewal that counts again, with nobody else nominated");

        store.claim(new Lease("b", 2), LeaderLease.DURATION.toMillis());
        WriteFence.Lapsed deposed = assertThrows(WriteFence.Lapsed.class, () -> fence.beforeWrite("PATCH", WRITE));
        assertTrue(deposed.getMessage().contains("a no longer leads"), deposed.getMessage());
        a.tick();
        assertEquals(Optional.empty(), a.lease());
        assertThrows(
                WriteFence.Lapsed.class,
                () -> a.fence(new Lease("a", 2)).beforeWrite("PATCH", Duration.ZERO),
                "nor for a lease it never held");
    }

    @Test
    void aHolderTheGroupNoLongerNominatesStopsRenewingAndLetsTheLeaseLapseUnreleased() {
        AtomicBoolean nominated = new AtomicBoolean(true);
        LeaderLease a = lease("a", nominated);
        a.tick();
        nominated.set(false);
        pass(LeaderLease.RENEW_EVERY);
        a.tick();
        assertEquals(Optional.empty(), a.lease());
        LeaseTerm term = store.leaseTerm().orElseThrow();
        assertFalse(term.released(), "a scale of its may still be on its way: the next waits the lease out");
        assertEquals(new Lease("a", 1), term.lease());
        a.close();
        assertFalse(store.leaseTerm().orElseThrow().released(), "nor released when it stops holding none");
    }
}
