package io.kcscale.scaler.autoscale;

import java.util.List;

/** One write to the shared state, in the order every replica applies them ({@link PolicyView}). */
public sealed interface StateRecord {

    /** A user's PUT: replaces whatever was there. */
    record PolicySet(String connector, AutoscalePolicy policy) implements StateRecord {}

    /** A user's DELETE (a tombstone). */
    record PolicyDeleted(String connector) implements StateRecord {}

    /**
     * A forced manual scale pauses the policy it saw: only that version. Kept apart from the policy, so that a
     * pause landing after a DELETE or a newer PUT changes nothing, and never brings a deleted policy back.
     */
    record Paused(String connector, long policyVersion) implements StateRecord {}

    /** The leader's decisions for one policy version, newest first, fenced by its lease. */
    record Decisions(String connector, long policyVersion, Lease lease, List<DecisionRecord> decisions)
            implements StateRecord {}

    /**
     * A replica the group nominated claims the epoch above the one in force; it counts only above that epoch, so of
     * two claimants that read the same state the first in the log wins. From then on only its writes count.
     *
     * @param durationMillis how long the lease holds after this record and each renewal was sent
     */
    record Claim(Lease lease, long durationMillis) implements StateRecord {}

    /** The holder of the lease in force says it still holds it: counts only for that lease, while not released. */
    record Renewal(Lease lease, long durationMillis) implements StateRecord {}

    /** The holder of the lease in force gives it up (it stops): another replica may claim at once. */
    record Release(Lease lease) implements StateRecord {}
}
