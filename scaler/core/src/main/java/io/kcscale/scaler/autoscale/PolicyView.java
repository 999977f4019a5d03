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
 *   <li>a claim counts only with a newer generation than the lease in force (a deposed leader's late claim does not);</li>
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
    private Lease leader;
    private long claimOffset = -1;

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
            if (leader != null && c.lease().generation() <= leader.generation()) {
                return false;
            }
            leader = c.lease();
            claimOffset = offset;
            return true;
        }
        StateRecord.Decisions d = (StateRecord.Decisions) record;
        if (!d.lease().equals(leader) || !isVersion(d.connector(), d.policyVersion())) {
            return false;
        }
        decisions.put(d.connector(), new Written(offset, d.policyVersion(), List.copyOf(d.decisions())));
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

    /** The lease whose writes count now; empty before any replica claimed. */
    public Optional<Lease> leader() {
        return Optional.ofNullable(leader);
    }

    /** Whether the claim written at {@code offset} is the one in force. */
    public boolean claimedAt(long offset) {
        return claimOffset == offset;
    }

    /** Whether the decisions written at {@code offset} are the connector's in force. */
    public boolean decisionsAt(String connector, long offset) {
        Written w = decisions.get(connector);
        return w != null && w.offset() == offset;
    }
}
