package io.kcscale.scaler.autoscale;

import java.util.List;
import java.util.Optional;

/** The shared state's log in memory, applied by the same {@link PolicyView} rules as the Kafka adapter. */
public final class InMemoryPolicyStore implements PolicyStore {

    private final PolicyView view = new PolicyView();
    private long next;

    private synchronized long append(StateRecord r) {
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
    public synchronized boolean claim(Lease lease) {
        return view.claimedAt(append(new StateRecord.Claim(lease)));
    }

    @Override
    public synchronized boolean recordDecisions(
            String connector, long policyVersion, Lease lease, List<DecisionRecord> decisions) {
        return view.decisionsAt(
                connector, append(new StateRecord.Decisions(connector, policyVersion, lease, decisions)));
    }
}
