package io.kcscale.scaler.act;

import java.time.Duration;

/**
 * Asked right before each write a scale makes to Connect or Kubernetes (each attempt of it): whether its writer may
 * still write for as long as that write may take. The autoscaler's leader passes the fence of its lease, so a leader
 * paused inside a scale (a long GC, a frozen VM) and deposed meanwhile sends nothing when it resumes; a user's own
 * scale holds no lease.
 */
@FunctionalInterface
public interface WriteFence {

    /** No lease to keep: a user's own scale. */
    WriteFence NONE = (what, timeout) -> {};

    /**
     * Returns when {@code what}, which may take up to {@code timeout}, may be sent.
     *
     * @throws Lapsed when it may not: it is not to be sent
     */
    void beforeWrite(String what, Duration timeout);

    /** A write its fence stopped: nothing was sent. */
    final class Lapsed extends RuntimeException {
        public Lapsed(String message) {
            super(message);
        }
    }
}
