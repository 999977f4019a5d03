package io.kcscale.scaler.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.ports.ConnectorResource;
import io.kcscale.scaler.ports.ConnectorResources;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.ports.TasksMaxWriter;
import io.strimzi.api.kafka.Crds;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import io.strimzi.api.kafka.model.connector.KafkaConnectorBuilder;
import io.strimzi.api.kafka.model.connector.KafkaConnectorList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KafkaConnector adapter and the writer that uses it, against fabric8's stand-in API server in
 * CRUD mode with Strimzi's KafkaConnector CRD (no Kubernetes API server runs on these machines).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class StrimziTasksMaxWriterTest {

    private static final String NAMESPACE = "kafka";
    private static final String SINK = "stocks-es-sink";
    private static final String PATH =
            "/apis/kafka.strimzi.io/v1beta2/namespaces/" + NAMESPACE + "/kafkaconnectors/" + SINK;

    KubernetesMockServer server;
    KubernetesClient client;

    private final List<String> connectWrites = new ArrayList<>();
    private final TasksMaxWriter connect = new TasksMaxWriter() {
        @Override
        public void write(String connector, Map<String, String> seen, int tasks, WriteFence fence) {
            connectWrites.add(connector + "=" + tasks);
        }

        @Override
        public String describe(String connector) {
            return "through Connect";
        }
    };

    @BeforeEach
    void strimzisCrdAndAConnector() {
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(Crds.kafkaConnector())
                .create();
        client.resources(KafkaConnector.class, KafkaConnectorList.class)
                .inNamespace(NAMESPACE)
                .resource(new KafkaConnectorBuilder()
                        .withNewMetadata()
                        .withName(SINK)
                        .withNamespace(NAMESPACE)
                        .addToLabels("strimzi.io/cluster", "connect")
                        .endMetadata()
                        .withNewSpec()
                        .withClassName("org.apache.camel.kafkaconnector.elasticsearch.CamelElasticsearchSinkConnector")
                        .withTasksMax(1)
                        .withConfig(Map.of("topics", "stocks"))
                        .endSpec()
                        .build())
                .create();
    }

    private KafkaConnectorResources resources(Optional<String> cluster) {
        return new KafkaConnectorResources(client, NAMESPACE, cluster);
    }

    private StrimziTasksMaxWriter writer(ConnectorResources resources) {
        return new StrimziTasksMaxWriter(resources, connect, new Backoff(3, Duration.ZERO, Duration.ZERO));
    }

    private KafkaConnector stored() {
        return client.resources(KafkaConnector.class, KafkaConnectorList.class)
                .inNamespace(NAMESPACE)
                .withName(SINK)
                .get();
    }

    private void editAsAnotherActor(Consumer<KafkaConnector> change) {
        client.resources(KafkaConnector.class, KafkaConnectorList.class)
                .inNamespace(NAMESPACE)
                .withName(SINK)
                .edit(k -> {
                    change.accept(k);
                    return k;
                });
    }

    @Test
    void aManagedConnectorIsScaledThroughItsResourceNotThroughConnect() {
        StrimziTasksMaxWriter writer = writer(resources(Optional.of("connect")));
        assertTrue(
                writer.describe(SINK).contains("spec.tasksMax on KafkaConnector kafka/stocks-es-sink"),
                writer.describe(SINK));
        writer.write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE);
        assertEquals(3, stored().getSpec().getTasksMax());
        assertEquals(List.of(), connectWrites);
    }

    @Test
    void aPatchItsFenceStopsIsNotSent() {
        List<String> asked = new ArrayList<>();
        WriteFence lapsed = (what, timeout) -> {
            asked.add(what + " within " + timeout.toMillis() + " ms");
            throw new WriteFence.Lapsed(what + " not sent");
        };
        WriteFence.Lapsed e = assertThrows(
                WriteFence.Lapsed.class,
                () -> writer(resources(Optional.of("connect"))).write(SINK, Map.of("tasks.max", "1"), 3, lapsed));
        assertEquals(1, stored().getSpec().getTasksMax(), e.getMessage());
        assertEquals(1, asked.size(), "asked once, right before the patch: " + asked);
        assertTrue(
                asked.get(0).startsWith("the patch of spec.tasksMax on KafkaConnector kafka/stocks-es-sink"),
                asked.get(0));
        assertEquals(List.of(), connectWrites, "nor written through Connect instead");
    }

    @Test
    void theScalersOwnClientReachesTheApiServerByAKubeconfigFile(@TempDir Path dir) throws IOException {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(
                kubeconfig,
                "apiVersion: v1\nkind: Config\nclusters:\n- name: stand-in\n  cluster:\n    server: "
                        + client.getMasterUrl()
                        + "\ncontexts:\n- name: stand-in\n  context:\n    cluster: stand-in\n    user: kcscale\n"
                        + "current-context: stand-in\nusers:\n- name: kcscale\n  user:\n    token: stand-in-token\n");
        try (KafkaConnectorResources own = KafkaConnectorResources.connect(
                new KubernetesSettings(NAMESPACE, Optional.of(kubeconfig), Optional.of("connect")),
                Duration.ofSeconds(10))) {
            assertEquals(1, own.find(SINK).orElseThrow().tasksMax());
        }
    }

    @Test
    void aConnectorNoResourceManagesIsWrittenThroughConnect() {
        writer(resources(Optional.empty())).write("other-sink", Map.of("tasks.max", "1"), 2, WriteFence.NONE);
        // a name no resource can bear (upper case) is not looked up at all
        writer(resources(Optional.empty())).write("Other_Sink", Map.of("tasks.max", "1"), 2, WriteFence.NONE);
        assertEquals(List.of("other-sink=2", "Other_Sink=2"), connectWrites);
    }

    @Test
    void aResourceOfAnotherConnectClusterDoesNotManageOurConnector() {
        assertTrue(resources(Optional.of("other-connect")).find(SINK).isEmpty());
        assertEquals(
                "connect", resources(Optional.empty()).find(SINK).orElseThrow().cluster());
    }

    @Test
    void aPatchOfAStaleReadIsAConflictAndWritesNothing() {
        KafkaConnectorResources resources = resources(Optional.empty());
        ConnectorResource stale = resources.find(SINK).orElseThrow();
        editAsAnotherActor(k -> k.getSpec().getConfig().put("batch.size", 500));
        assertThrows(KubernetesException.Conflict.class, () -> resources.patchTasksMax(stale, 4, WriteFence.NONE));
        assertEquals(1, stored().getSpec().getTasksMax());
    }

    @Test
    void aConcurrentEditOfAnotherFieldIsReadAgainAndKept() {
        ConnectorResources racing = racingWith(k -> k.getSpec().getConfig().put("batch.size", 500));
        writer(racing).write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE);
        assertEquals(3, stored().getSpec().getTasksMax());
        assertEquals(500, stored().getSpec().getConfig().get("batch.size"), "the other actor's edit is not lost");
    }

    @Test
    void aConcurrentScaleIsReportedNotOverwritten() {
        ConnectorResources racing = racingWith(k -> k.getSpec().setTasksMax(5));
        ScalerException e = assertThrows(
                ScalerException.class, () -> writer(racing).write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE));
        assertEquals(ScalerException.Problem.CONFLICT, e.problem());
        assertTrue(
                e.getMessage()
                        .contains("another actor set spec.tasksMax of KafkaConnector kafka/stocks-es-sink from 1 to 5"),
                e.getMessage());
        assertEquals(5, stored().getSpec().getTasksMax());
        assertEquals(List.of(), connectWrites);
    }

    @Test
    void aTasksMaxSetSinceTheChecksReadIsAConflictNamingTheCountThatStands() {
        // kubectl edit, KEDA or another scaler set spec.tasksMax after this scale read Connect (tasks.max 1)
        editAsAnotherActor(k -> k.getSpec().setTasksMax(4));
        ScalerException e = assertThrows(
                ScalerException.class,
                () -> writer(resources(Optional.empty())).write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE));
        assertEquals(ScalerException.Problem.CONFLICT, e.problem());
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "spec.tasksMax of KafkaConnector kafka/stocks-es-sink is 4, not the 1 the scale's checks saw"),
                e.getMessage());
        assertEquals(4, stored().getSpec().getTasksMax());
        assertEquals(List.of(), connectWrites);
    }

    @Test
    void anUnsetTasksMaxStandsForConnectsDefaultOfOne() {
        editAsAnotherActor(k -> k.getSpec().setTasksMax(null));
        writer(resources(Optional.empty())).write(SINK, Map.of("tasks.max", "1"), 2, WriteFence.NONE);
        assertEquals(2, stored().getSpec().getTasksMax());
        ScalerException e = assertThrows(
                ScalerException.class,
                () -> writer(resources(Optional.empty())).write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE));
        assertEquals(ScalerException.Problem.CONFLICT, e.problem());
    }

    @Test
    void aPatchTheRoleDoesNotAllowIsRefusedWithOneClearLineAndNotWrittenThroughConnect() {
        server.expect()
                .patch()
                .withPath(PATH)
                .andReturn(
                        403,
                        new StatusBuilder()
                                .withCode(403)
                                .withReason("Forbidden")
                                .withMessage(
                                        "kafkaconnectors.kafka.strimzi.io \"stocks-es-sink\" is forbidden: User \"system:serviceaccount:kafka:kcscale\" "
                                                + "cannot patch resource \"kafkaconnectors\"")
                                .build())
                .once();
        ScalerException e = assertThrows(
                ScalerException.class,
                () -> writer(resources(Optional.empty())).write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE));
        assertEquals(ScalerException.Problem.REFUSED, e.problem());
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "the scaler may not patch kafkaconnectors in namespace kafka (Kubernetes answered 403)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("not written through Kafka Connect's REST API"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
        assertEquals(1, stored().getSpec().getTasksMax());
        assertEquals(List.of(), connectWrites);
    }

    @Test
    void whenKubernetesCannotSayWhetherAResourceManagesTheConnectorNothingIsWritten() {
        server.expect()
                .get()
                .withPath(PATH)
                .andReturn(
                        403,
                        new StatusBuilder()
                                .withCode(403)
                                .withReason("Forbidden")
                                .build())
                .once();
        ScalerException e = assertThrows(
                ScalerException.class,
                () -> writer(resources(Optional.empty())).write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE));
        assertEquals(ScalerException.Problem.REFUSED, e.problem());
        assertTrue(
                e.getMessage().startsWith("the scaler may not get kafkaconnectors in namespace kafka"), e.getMessage());
        assertEquals(List.of(), connectWrites);
    }

    @Test
    void aResourceDeletedDuringTheScaleIsNotRecreated() {
        ConnectorResources deleting =
                beforeTheFirstPatch(() -> client.resources(KafkaConnector.class, KafkaConnectorList.class)
                        .inNamespace(NAMESPACE)
                        .withName(SINK)
                        .delete());
        ScalerException e = assertThrows(
                ScalerException.class,
                () -> writer(deleting).write(SINK, Map.of("tasks.max", "1"), 3, WriteFence.NONE));
        assertEquals(ScalerException.Problem.GONE, e.problem());
        assertTrue(
                e.getMessage().contains("was deleted during this scale; the scaler does not re-create it"),
                e.getMessage());
        assertEquals(null, stored());
        assertEquals(List.of(), connectWrites);
    }

    /** The real resources, with another actor's edit landing between the writer's first read and its first patch. */
    private ConnectorResources racingWith(Consumer<KafkaConnector> edit) {
        return beforeTheFirstPatch(() -> editAsAnotherActor(edit));
    }

    /** The real resources, {@code meanwhile} running once just before the first patch. */
    private ConnectorResources beforeTheFirstPatch(Runnable meanwhile) {
        KafkaConnectorResources real = resources(Optional.empty());
        return new ConnectorResources() {
            private boolean done;

            @Override
            public String namespace() {
                return NAMESPACE;
            }

            @Override
            public Optional<ConnectorResource> find(String connector) {
                return real.find(connector);
            }

            @Override
            public void patchTasksMax(ConnectorResource read, int tasks, WriteFence fence) {
                if (!done) {
                    done = true;
                    meanwhile.run();
                }
                real.patchTasksMax(read, tasks, fence);
            }
        };
    }
}
