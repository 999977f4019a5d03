package io.kcscale.scaler.autoscale;

import java.util.Optional;

/** Port: whether this replica leads, as the group of replicas decided; only the leader runs the autoscale loops. */
public interface Leadership {

    /** This replica's id, unique among the replicas running now. */
    String instanceId();

    /** This replica's current lease while the group gives it leadership; empty while it follows. */
    Optional<Lease> lease();
}
