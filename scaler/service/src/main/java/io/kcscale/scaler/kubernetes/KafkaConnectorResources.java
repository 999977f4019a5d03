package io.kcscale.scaler.kubernetes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.ports.ConnectorResource;
import io.kcscale.scaler.ports.ConnectorResources;
import io.strimzi.api.ResourceLabels;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import io.strimzi.api.kafka.model.connector.KafkaConnectorList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The KafkaConnector resources of one namespace, through the Kubernetes API: which one manages a
 * connector (Strimzi names the connector after its resource), and a conditional write of its
 * {@code spec.tasksMax}. Every call has the client's request timeout and is tried once; errors are
 * {@link KubernetesException}s.
 */
public final class KafkaConnectorResources implements ConnectorResources, AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A resource name is a DNS subdomain; a connector named otherwise cannot have a resource. */
    private static final Pattern RESOURCE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    private final KubernetesClient client;
    private final String namespace;
    private final Optional<String> connectCluster;

    public KafkaConnectorResources(KubernetesClient client, String namespace, Optional<String> connectCluster) {
        this.client = client;
        this.namespace = namespace;
        this.connectCluster = connectCluster;
    }

    /**
     * A client for {@code settings}: its kubeconfig file, else the pod's service account or the usual
     * kubeconfig; each request bounded by {@code timeout}, and not retried by the client (callers decide).
     */
    public static KafkaConnectorResources connect(KubernetesSettings settings, Duration timeout) {
        Config base = settings.kubeconfig()
                .map(KafkaConnectorResources::fromFile)
                .orElseGet(() -> Config.autoConfigure(null));
        Config config = new ConfigBuilder(base)
                .withNamespace(settings.namespace())
                .withConnectionTimeout((int) timeout.toMillis())
                .withRequestTimeout((int) timeout.toMillis())
                .withRequestRetryBackoffLimit(0)
                .build();
        return new KafkaConnectorResources(
                new KubernetesClientBuilder().withConfig(config).build(),
                settings.namespace(),
                settings.connectCluster());
    }

    private static Config fromFile(Path file) {
        try {
            return Config.fromKubeconfig(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kubeconfig " + file, e);
        }
    }

    @Override
    public String namespace() {
        return namespace;
    }

    /**
     * The resource that manages {@code connector}: the KafkaConnector of that name, if its
     * {@code strimzi.io/cluster} label names the configured Connect cluster (when one is configured).
     */
    @Override
    public Optional<ConnectorResource> find(String connector) {
        if (!RESOURCE_NAME.matcher(connector).matches()) {
            return Optional.empty();
        }
        KafkaConnector found;
        try {
            found = resource(connector).get();
        } catch (KubernetesClientException e) {
            throw failure(e, "get", connector);
        }
        if (found == null) {
            return Optional.empty();
        }
        Map<String, String> labels = found.getMetadata().getLabels();
        String cluster = labels == null ? null : labels.get(ResourceLabels.STRIMZI_CLUSTER_LABEL);
        if (connectCluster.isPresent() && !connectCluster.get().equals(cluster)) {
            return Optional.empty();
        }
        return Optional.of(new ConnectorResource(
                namespace,
                connector,
                cluster,
                found.getSpec() == null ? null : found.getSpec().getTasksMax(),
                found.getMetadata().getResourceVersion()));
    }

    /**
     * Sets {@code spec.tasksMax} by a merge patch that carries the resourceVersion read: the API server
     * applies it only if the resource has not changed since.
     *
     * @throws KubernetesException.Conflict when it has; nothing was written
     * @throws KubernetesException.Gone when it was deleted
     */
    @Override
    public void patchTasksMax(ConnectorResource read, int tasks, WriteFence fence) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("metadata").put("resourceVersion", read.resourceVersion());
        patch.putObject("spec").put("tasksMax", tasks);
        Config config = client.getConfiguration();
        // the connection's timeout and the request's: the most the patch may take, tried once
        fence.beforeWrite(
                "the patch of spec.tasksMax on " + read.describe(),
                Duration.ofMillis((long) config.getConnectionTimeout() + config.getRequestTimeout()));
        try {
            resource(read.name()).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
        } catch (KubernetesClientException e) {
            throw failure(e, "patch", read.name());
        }
    }

    private Resource<KafkaConnector> resource(String name) {
        return client.resources(KafkaConnector.class, KafkaConnectorList.class)
                .inNamespace(namespace)
                .withName(name);
    }

    /** One line a person can act on; the API server's message, never the credentials. */
    private KubernetesException failure(KubernetesClientException e, String verb, String name) {
        String what = "KafkaConnector " + namespace + "/" + name;
        return switch (e.getCode()) {
            case 401 ->
                new KubernetesException.AccessDenied(
                        "Kubernetes did not accept the scaler's credentials (401) to " + verb + " " + what
                                + ": check its service account token or kubeconfig",
                        e);
            case 403 ->
                new KubernetesException.AccessDenied(
                        "the scaler may not " + verb + " kafkaconnectors in namespace " + namespace
                                + " (Kubernetes answered 403): its Role must allow get, list, watch and patch on kafkaconnectors.kafka.strimzi.io "
                                + "there (kubernetes/scaler.yaml)",
                        e);
            case 404 -> new KubernetesException.Gone(what + " no longer exists", e);
            case 409 ->
                new KubernetesException.Conflict(what + " changed since it was read (its resourceVersion moved on)", e);
            default ->
                new KubernetesException.Unavailable(
                        "cannot " + verb + " " + what + ": "
                                + (e.getCode() > 0
                                        ? "Kubernetes answered " + e.getCode() + " " + firstLine(e.getMessage())
                                        : rootCause(e)),
                        e);
        };
    }

    /** Without an answer the client's own message only repeats the operation; the cause says what went wrong (TLS, a refused connection). */
    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + firstLine(root.getMessage());
    }

    private static String firstLine(String message) {
        return message == null ? "(no message)" : message.lines().findFirst().orElse("");
    }

    @Override
    public void close() {
        client.close();
    }
}
