package io.kcscale.scaler.ports;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.LeaseTerm;
import io.kcscale.scaler.autoscale.PolicyView;
import io.kcscale.scaler.autoscale.StoredPolicy;
import java.util.List;
import java.util.Optional;

/**
 * Port: the autoscaler's state shared by every replica (policies, pauses, the leader's decisions and its
 * lease), read from a {@link PolicyView} of one ordered log. Writes return once the writer has read the log
 * back to them, so a replica serves its own writes at once; the conditional ones say whether they counted.
 */
public interface PolicyStore {

    List<StoredPolicy> policies();

    Optional<StoredPolicy> policy(String connector);

    /** The lease whose writes count now; empty before any claim and once its holder released it. */
    Optional<Lease> leader();

    /** The lease in force with its stated duration, released or not. */
    Optional<LeaseTerm> leaseTerm();

    /** Sets (or replaces) a connector's policy; the stored policy. */
    StoredPolicy put(String connector, AutoscalePolicy policy);

    /** Deletes a connector's policy; false when it had none. */
    boolean remove(String connector);

    /** Pauses the policy at {@code version} only: nothing when it was deleted or replaced meanwhile. */
    void pause(String connector, long version);

    /** Claims {@code lease}, held {@code durationMillis} after this write and each renewal; whether it is now in force. */
    boolean claim(Lease lease, long durationMillis);

    /** Renews the lease in force for {@code durationMillis} more; false when it is not {@code lease} (superseded). */
    boolean renew(Lease lease, long durationMillis);

    /** Gives up {@code lease} so that another replica may claim at once; whether it was still in force. */
    boolean release(Lease lease);

    /** Writes the decisions of a policy version under {@code lease}; whether they counted (still leader, same version). */
    boolean recordDecisions(String connector, long policyVersion, Lease lease, List<DecisionRecord> decisions);
}
