package io.kcscale.scaler.ports;

/**
 * The KafkaConnector resource that manages a connector, as read.
 *
 * @param cluster         its {@code strimzi.io/cluster} label (the KafkaConnect it runs in), or null
 * @param tasksMax        its {@code spec.tasksMax}, or null when unset
 * @param resourceVersion the version read: a write conditional on it fails if the resource changed since
 */
public record ConnectorResource(
        String namespace, String name, String cluster, Integer tasksMax, String resourceVersion) {

    /** {@code KafkaConnector namespace/name}, as people name it. */
    public String describe() {
        return "KafkaConnector " + namespace + "/" + name;
    }
}
