package io.kcscale.scaler.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KubernetesSettingsTest {

    @Test
    void noNamespaceNoKubernetes() {
        assertTrue(KubernetesSettings.fromValues(Map.of()).isEmpty());
    }

    @Test
    void theNamespaceAndTheClusterLabel() {
        KubernetesSettings k = KubernetesSettings.fromValues(
                        Map.of("kubernetes.namespace", "kafka", "kubernetes.connect.cluster", "my-connect"))
                .orElseThrow();
        assertEquals("kafka", k.namespace());
        assertEquals(Optional.of("my-connect"), k.connectCluster());
        assertTrue(k.kubeconfig().isEmpty());
    }

    @Test
    void eachBadValueNamesItsKey() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> KubernetesSettings.fromValues(Map.of("kubernetes.namespace", "Kafka_1")))
                .getMessage()
                .startsWith("kubernetes.namespace (--kubernetes-namespace) must be a namespace name"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> KubernetesSettings.fromValues(Map.of("kubernetes.connect.cluster", "c")))
                .getMessage()
                .contains("need kubernetes.namespace"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> KubernetesSettings.fromValues(Map.of(
                                "kubernetes.namespace", "kafka", "kubernetes.kubeconfig", "/nonexistent/kubeconfig")))
                .getMessage()
                .startsWith("kubernetes.kubeconfig (--kubernetes-kubeconfig) must be a readable file"));
    }
}
