package io.kcscale.scaler.autoscale;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shared state as the log of {@link StateRecord}s builds it, the same on every replica because every
 * replica applies the same records in the same order by these rules (pure; the caller synchronizes):
 * <ul>
 *   <li>a PUT or a DELETE always counts: the user's latest word wins;</li>
 *   <li>a pause counts only for the policy version it names (so never for a deleted or replaced policy);</li>
 *   <li>a claim counts only with an epoch above the lease in force (of two claimants that read the same state, the
 *   first in the log wins; a deposed leader's late claim does not count);</li>
 *   <li>a renewal or a release counts only for the lease in force (a release ends it: no writes count under it);</li>
 *   <li>decisions count only under the lease in force and for the policy version in force.</li>
 * </ul>
 * A writer learns whether its conditional write counted by reading the log back to it.
 */
public final class PolicyView {

    private record Policy(AutoscalePolicy settings, long version) {}

    private record Written(long offset, long policyVersion, List<DecisionRecord> decisions) {}

    private final Map<String, Policy> policies = new TreeMap<>();
    private final Map<String, Long> paused = new HashMap<>();
    private final Map<String, Written> decisions = new HashMap<>();
    private LeaseTerm lease;
    private long leaseRecords;
    private long leaseOffset = -1;

    /** Applies the record at {@code offset}; whether it counted. */
    public boolean apply(long offset, StateRecord record) {
        if (record instanceof StateRecord.PolicySet s) {
            policies.put(s.connector(), new Policy(s.policy(), offset));
            return true;
        }
        if (record instanceof StateRecord.PolicyDeleted d) {
            policies.remove(d.connector());
            paused.remove(d.connector());
            decisions.remove(d.connector());
            return true;
        }
        if (record instanceof StateRecord.Paused p) {
            if (!isVersion(p.connector(), p.policyVersion())) {
                return false;
            }
            paused.put(p.connector(), p.policyVersion());
            return true;
        }
        if (record instanceof StateRecord.Claim c) {
            if (lease != null && c.lease().epoch() <= lease.lease().epoch()) {
                return false;
            }
            return leaseRecord(offset, c.lease(), c.durationMillis(), false);
        }
        if (record instanceof StateRecord.Renewal r) {
            return leader().equals(Optional.of(r.lease())) && leaseRecord(offset, r.lease(), r.durationMillis(), false);
        }
        if (record instanceof StateRecord.Release r) {
            return leader().equals(Optional.of(r.lease()))
                    && leaseRecord(offset, r.lease(), lease.durationMillis(), true);
        }
        StateRecord.Decisions d = (StateRecord.Decisions) record;
        if (!leader().equals(Optional.of(d.lease())) || !isVersion(d.connector(), d.policyVersion())) {
            return false;
        }
        decisions.put(d.connector(), new Written(offset, d.policyVersion(), List.copyOf(d.decisions())));
        return true;
    }

    private boolean leaseRecord(long offset, Lease l, long durationMillis, boolean released) {
        lease = new LeaseTerm(l, durationMillis, released, ++leaseRecords);
        leaseOffset = offset;
        return true;
    }

    private boolean isVersion(String connector, long version) {
        Policy p = policies.get(connector);
        return p != null && p.version() == version;
    }

    public Optional<StoredPolicy> policy(String connector) {
        Policy p = policies.get(connector);
        if (p == null) {
            return Optional.empty();
        }
        AutoscalePolicy settings = Long.valueOf(p.version()).equals(paused.get(connector))
                ? p.settings().paused()
                : p.settings();
        Written w = decisions.get(connector);
        List<DecisionRecord> list = w != null && w.policyVersion() == p.version() ? w.decisions() : List.of();
        return Optional.of(new StoredPolicy(connector, settings, p.version(), list));
    }

    /** Every policy, by connector name. */
    public List<StoredPolicy> policies() {
        return policies.keySet().stream().flatMap(c -> policy(c).stream()).toList();
    }

    /** The lease whose writes count now; empty before any replica claimed, and once its holder released it. */
    public Optional<Lease> leader() {
        return lease == null || lease.released() ? Optional.empty() : Optional.of(lease.lease());
    }

    /** The lease in force, released or not; empty before any replica claimed. */
    public Optional<LeaseTerm> leaseTerm() {
        return Optional.ofNullable(lease);
    }

    /** Whether the claim, renewal or release written at {@code offset} counted and is the latest that did. */
    public boolean leaseWrittenAt(long offset) {
        return leaseOffset == offset;
    }

    /** Whether the decisions written at {@code offset} are the connector's in force. */
    public boolean decisionsAt(String connector, long offset) {
        Written w = decisions.get(connector);
        return w != null && w.offset() == offset;
    }
}
