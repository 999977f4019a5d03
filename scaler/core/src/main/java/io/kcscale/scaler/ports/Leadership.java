package io.kcscale.scaler.ports;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.autoscale.Lease;
import java.util.Optional;

/** Port: whether this replica leads; only the leader runs the autoscale loops, and its writes are fenced by its lease. */
public interface Leadership {

    /** This replica's id, unique among the replicas running now. */
    String instanceId();

    /** The lease this replica holds now: the one in force, its own, and not lapsed; empty while it follows. */
    Optional<Lease> lease();

    /** Lets a write made under {@code lease} go only while this replica holds that lease longer than the write may take. */
    WriteFence fence(Lease lease);
}
