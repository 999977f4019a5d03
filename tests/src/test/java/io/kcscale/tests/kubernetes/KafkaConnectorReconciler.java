package io.kcscale.tests.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kcscale.scaler.ports.ConnectApi;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import io.strimzi.api.kafka.model.connector.KafkaConnectorList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for Strimzi's operator in the tests: every {@code INTERVAL_MILLIS} it copies each
 * KafkaConnector's {@code spec.tasksMax} of a namespace into the connector's config in Kafka Connect,
 * through Connect's REST API, as the operator's reconciliation does (and so reverts any other value).
 */
final class KafkaConnectorReconciler implements AutoCloseable {

    private static final long INTERVAL_MILLIS = 200;

    private final KubernetesClient client;
    private final String namespace;
    private final ConnectApi connect;
    /** While set, rounds change nothing: the operator has not yet reconciled a resource someone edited. */
    private volatile boolean paused;

    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "test-kafkaconnector-reconciler");
        t.setDaemon(true);
        return t;
    });

    KafkaConnectorReconciler(KubernetesClient client, String namespace, ConnectApi connect) {
        this.client = client;
        this.namespace = namespace;
        this.connect = connect;
    }

    KafkaConnectorReconciler start() {
        loop.scheduleWithFixedDelay(this::reconcile, 0, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Stops applying resources to Connect until {@link #resume}, as an operator that is behind. */
    void pause() {
        paused = true;
    }

    void resume() {
        paused = false;
    }

    private void reconcile() {
        if (paused) {
            return;
        }
        try {
            for (KafkaConnector resource : client.resources(KafkaConnector.class, KafkaConnectorList.class)
                    .inNamespace(namespace)
                    .list()
                    .getItems()) {
                Integer wanted = resource.getSpec().getTasksMax();
                String name = resource.getMetadata().getName();
                Map<String, String> config = new LinkedHashMap<>(connect.connectorConfig(name));
                if (wanted != null && !String.valueOf(wanted).equals(config.get("tasks.max"))) {
                    config.put("tasks.max", String.valueOf(wanted));
                    connect.putConnectorConfig(name, config);
                }
            }
        } catch (RuntimeException e) {
            // as the operator: a failed round is tried again at the next one
        }
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
