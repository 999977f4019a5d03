package io.kcscale.scaler.kubernetes;

import io.kcscale.scaler.service.Setting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the scaler finds KafkaConnector resources: a namespace, the credentials (a kubeconfig file, or
 * else the pod's service account, else {@code $KUBECONFIG} or {@code ~/.kube/config}), and optionally
 * the {@code strimzi.io/cluster} label of the KafkaConnect whose REST API the scaler reads.
 *
 * @param connectCluster when set, only a resource with this label manages a connector: one of the same
 *                       name for another Connect cluster manages another connector
 */
public record KubernetesSettings(String namespace, Optional<Path> kubeconfig, Optional<String> connectCluster) {

    /** A namespace is a DNS label. */
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** A label value: at most 63 characters, alphanumerics with - _ . inside. */
    private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

    public KubernetesSettings {
        if (!NAMESPACE.matcher(namespace).matches()) {
            throw new IllegalArgumentException(Setting.KUBERNETES_NAMESPACE.named() + " must be a namespace name "
                    + "(lower-case letters, digits and -, at most 63), got " + namespace);
        }
        if (kubeconfig.isPresent() && !Files.isReadable(kubeconfig.get())) {
            throw new IllegalArgumentException(
                    Setting.KUBERNETES_KUBECONFIG.named() + " must be a readable file, got " + kubeconfig.get());
        }
        if (connectCluster.isPresent()
                && !LABEL_VALUE.matcher(connectCluster.get()).matches()) {
            throw new IllegalArgumentException(Setting.KUBERNETES_CONNECT_CLUSTER.named() + " must be a label value "
                    + "(the KafkaConnect's name), got " + connectCluster.get());
        }
    }

    /**
     * The Kubernetes settings among a settings file's values; none without {@code kubernetes.namespace}.
     *
     * @throws IllegalArgumentException when a Kubernetes key is given without the namespace, or one is malformed
     */
    public static Optional<KubernetesSettings> fromValues(Map<String, String> v) {
        Optional<String> namespace = value(v, Setting.KUBERNETES_NAMESPACE.key());
        Optional<Path> kubeconfig =
                value(v, Setting.KUBERNETES_KUBECONFIG.key()).map(Path::of);
        Optional<String> cluster = value(v, Setting.KUBERNETES_CONNECT_CLUSTER.key());
        if (namespace.isEmpty()) {
            if (kubeconfig.isPresent() || cluster.isPresent()) {
                throw new IllegalArgumentException("kubernetes.kubeconfig and kubernetes.connect.cluster need "
                        + Setting.KUBERNETES_NAMESPACE.named() + ": the namespace of the KafkaConnector resources");
            }
            return Optional.empty();
        }
        return Optional.of(new KubernetesSettings(namespace.get(), kubeconfig, cluster));
    }

    private static Optional<String> value(Map<String, String> v, String key) {
        return Optional.ofNullable(v.get(key)).map(String::strip).filter(s -> !s.isEmpty());
    }
}
