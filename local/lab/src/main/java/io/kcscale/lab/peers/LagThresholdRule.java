package io.kcscale.lab.peers;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The baseline peers use (KEDA's Kafka scaler behind a Kubernetes HPA): tasks = ceil(total lag /
 * lagThreshold), between minTasks and the partition count (and maxTasks), polled every 30 s; scale-ups
 * at once, scale-downs only after the desired count stayed lower for a stabilization window (HPA: 300 s).
 * It knows nothing of keys, rates or the sink.
 */
public final class LagThresholdRule extends PeerRule {

    public static final String NAME = "lag-threshold";
    public static final long POLL_MILLIS = 30_000;
    public static final long SCALE_DOWN_STABILIZATION_MILLIS = 300_000;

    private final long lagThreshold;

    public LagThresholdRule(long lagThreshold, int minTasks, int maxTasks) {
        super(NAME, POLL_MILLIS, minTasks, maxTasks);
        if (lagThreshold < 1) {
            throw new IllegalArgumentException("lagThreshold must be at least 1, got " + lagThreshold);
        }
        this.lagThreshold = lagThreshold;
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        int desired = bounds.clamp((double) o.lag() / lagThreshold, o);
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("lag", o.lag());
        in.put("lagThreshold", lagThreshold);
        in.put("desiredTasks", desired);
        if (desired > o.tasks()) {
            m.notIdle();
            return new Decision(
                    o.atMillis(),
                    Decision.Action.SCALE_UP,
                    o.tasks(),
                    desired,
                    "lag",
                    "lag " + o.lag() + " / threshold " + lagThreshold + " -> " + desired + " tasks",
                    in);
        }
        if (desired < o.tasks()) {
            if (m.idleSinceMillis() == Long.MIN_VALUE) {
                m.idleSince(o.atMillis());
            }
            if (o.atMillis() - m.idleSinceMillis() >= SCALE_DOWN_STABILIZATION_MILLIS) {
                return new Decision(
                        o.atMillis(),
                        Decision.Action.SCALE_DOWN,
                        o.tasks(),
                        desired,
                        "lag",
                        "lag " + o.lag() + " / threshold " + lagThreshold + " -> " + desired
                                + " tasks after stabilization",
                        in);
            }
            return new Decision(
                    o.atMillis(),
                    Decision.Action.HOLD,
                    o.tasks(),
                    o.tasks(),
                    "stabilization",
                    "wants " + desired + " tasks; waiting out the scale-down stabilization window",
                    in);
        }
        m.notIdle();
        return new Decision(o.atMillis(), Decision.Action.NONE, o.tasks(), o.tasks(), "steady", "lag at threshold", in);
    }
}
