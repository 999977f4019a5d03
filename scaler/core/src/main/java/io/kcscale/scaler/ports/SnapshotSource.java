package io.kcscale.scaler.ports;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.Optional;

/** What the scaler has observed of a connector lately; empty when it has not observed it yet. */
@FunctionalInterface
public interface SnapshotSource {

    Optional<PipelineSnapshot> snapshot(String connector);
}
