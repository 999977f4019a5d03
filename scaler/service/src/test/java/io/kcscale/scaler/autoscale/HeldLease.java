package io.kcscale.scaler.autoscale;

import java.util.Optional;

/** Leadership a test hands out and takes back, as the group would. */
final class HeldLease implements Leadership {

    private final String id;
    private volatile Lease lease;

    HeldLease(String id) {
        this.id = id;
    }

    void lead(int generation) {
        lease = new Lease(id, generation);
    }

    @Override
    public String instanceId() {
        return id;
    }

    @Override
    public Optional<Lease> lease() {
        return Optional.ofNullable(lease);
    }
}
