package io.kcscale.scaler.loop;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.LeaseTerm;
import io.kcscale.scaler.autoscale.PolicyView;
import io.kcscale.scaler.autoscale.StateRecord;
import io.kcscale.scaler.autoscale.StoredPolicy;
import io.kcscale.scaler.ports.PolicyStore;
import java.util.List;
import java.util.Optional;

/** The shared state's log in memory, applied by the same {@link PolicyView} rules as the Kafka adapter. */
public final class InMemoryPolicyStore implements PolicyStore {

    private final PolicyView view = new PolicyView();
    private long next;
    /** When set, every write fails as one to a Kafka that does not answer. */
    public volatile boolean refuseWrites;

    private synchronized long append(StateRecord r) {
        if (refuseWrites) {
            throw new IllegalStateException("the state topic takes no writes");
        }
        long offset = next++;
        view.apply(offset, r);
        return offset;
    }

    @Override
    public synchronized List<StoredPolicy> policies() {
        return view.policies();
    }

    @Override
    public synchronized Optional<StoredPolicy> policy(String connector) {
        return view.policy(connector);
    }

    @Override
    public synchronized Optional<Lease> leader() {
        return view.leader();
    }

    @Override
    public StoredPolicy put(String connector, AutoscalePolicy policy) {
        return new StoredPolicy(connector, policy, append(new StateRecord.PolicySet(connector, policy)), List.of());
    }

    @Override
    public synchronized boolean remove(String connector) {
        if (view.policy(connector).isEmpty()) {
            return false;
        }
        append(new StateRecord.PolicyDeleted(connector));
        return true;
    }

    @Override
    public void pause(String connector, long version) {
        append(new StateRecord.Paused(connector, version));
    }

    @Override
    public synchronized Optional<LeaseTerm> leaseTerm() {
        return view.leaseTerm();
    }

    @Override
    public synchronized boolean claim(Lease lease, long durationMillis) {
        return view.leaseWrittenAt(append(new StateRecord.Claim(lease, durationMillis)));
    }

    @Override
    public synchronized boolean renew(Lease lease, long durationMillis) {
        return view.leaseWrittenAt(append(new StateRecord.Renewal(lease, durationMillis)));
    }

    @Override
    public synchronized boolean release(Lease lease) {
        return view.leaseWrittenAt(append(new StateRecord.Release(lease)));
    }

    @Override
    public synchronized boolean recordDecisions(
            String connector, long policyVersion, Lease lease, List<DecisionRecord> decisions) {
        return view.decisionsAt(
                connector, append(new StateRecord.Decisions(connector, policyVersion, lease, decisions)));
    }
}
