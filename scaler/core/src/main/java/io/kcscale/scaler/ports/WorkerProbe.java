package io.kcscale.scaler.ports;

import java.util.Collection;
import java.util.Set;

/** Asks Connect's workers, by the address each advertises, whether they are alive. */
@FunctionalInterface
public interface WorkerProbe {

    /**
     * The workers among {@code workerIds} (Connect's {@code worker_id}, the worker's advertised {@code host:port}) that
     * gave no answer; a worker the probe cannot tell of (an address it cannot resolve or read) is not among them.
     */
    Set<String> unanswered(Collection<String> workerIds);
}
