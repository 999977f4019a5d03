package io.kcscale.scaler.ports;

import io.kcscale.scaler.act.WriteFence;
import java.util.Optional;

/** The KafkaConnector resources of one namespace, as the scale needs them: {@link KafkaConnectorResources} is the real one. */
public interface ConnectorResources {

    String namespace();

    /** The resource that manages {@code connector}, if one does. @throws KubernetesException when Kubernetes cannot tell */
    Optional<ConnectorResource> find(String connector);

    /**
     * Sets {@code spec.tasksMax}, conditional on the resource being as {@code read}; {@code fence} is asked right
     * before the patch is sent.
     *
     * @throws KubernetesException.Conflict when it changed since; nothing was written
     */
    void patchTasksMax(ConnectorResource read, int tasks, WriteFence fence);
}
