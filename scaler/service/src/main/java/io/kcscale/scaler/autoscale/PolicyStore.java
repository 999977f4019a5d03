package io.kcscale.scaler.autoscale;

import java.util.List;
import java.util.Optional;

/**
 * Port: the autoscaler's state shared by every replica (policies, pauses, the leader's decisions and its
 * claim), read from a {@link PolicyView} of one ordered log. Writes return once the writer has read the log
 * back to them, so a replica serves its own writes at once; the conditional ones say whether they counted.
 */
public interface PolicyStore {

    List<StoredPolicy> policies();

    Optional<StoredPolicy> policy(String connector);

    /** The lease whose writes count now. */
    Optional<Lease> leader();

    /** Sets (or replaces) a connector's policy; the stored policy. */
    StoredPolicy put(String connector, AutoscalePolicy policy);

    /** Deletes a connector's policy; false when it had none. */
    boolean remove(String connector);

    /** Pauses the policy at {@code version} only: nothing when it was deleted or replaced meanwhile. */
    void pause(String connector, long version);

    /** Announces {@code lease}; whether it is now the lease in force. */
    boolean claim(Lease lease);

    /** Writes the decisions of a policy version under {@code lease}; whether they counted (still leader, same version). */
    boolean recordDecisions(String connector, long policyVersion, Lease lease, List<DecisionRecord> decisions);
}
