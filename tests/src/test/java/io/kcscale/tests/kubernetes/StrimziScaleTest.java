package io.kcscale.tests.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.strimzi.api.kafka.Crds;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import io.strimzi.api.kafka.model.connector.KafkaConnectorBuilder;
import io.strimzi.api.kafka.model.connector.KafkaConnectorList;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Strimzi-aware scale on the real Connect worker of the shared stack: the sink is declared by a
 * KafkaConnector resource in fabric8's stand-in API server (CRUD mode, Strimzi's CRD), a stand-in
 * reconciler copies its spec.tasksMax into Connect as the operator would, and a scaler started with
 * --kubernetes-namespace scales through the resource: a user's scale (its first patch meeting a
 * conflict, retried), a patch the Role does not allow (refused, and not written through Connect's REST
 * API either), and the autoscaler's scale with the recommendation route and gauge.
 */
@Order(7)
@ExtendWith(SharedStack.class)
@EnableKubernetesMockClient(crud = true, https = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StrimziScaleTest {

    private static final String NAMESPACE = "kafka";
    private static final String SINK = StackOptions.SINK_CONNECTOR;
    private static final String RESOURCE_PATH =
            "/apis/kafka.strimzi.io/v1beta2/namespaces/" + NAMESPACE + "/kafkaconnectors/" + SINK;
    private static final Pattern GAUGE =
            Pattern.compile("(?m)^kcscale_recommended_tasks\\{connector=\"" + SINK + "\"} (\\S+)$");
    private static final Pattern WORKERS_GAUGE =
            Pattern.compile("(?m)^kcscale_recommended_workers\\{connector=\"" + SINK + "\"} (\\S+)$");

    static KubernetesMockServer server;
    static KubernetesClient client;

    private static ConnectRestClient connect;
    private static KafkaConnectorReconciler reconciler;
    private static ScalerService service;
    private static ApiServer api;
    private static ScalerHttp scaler;

    @BeforeAll
    static void aResourceForTheSinkAndAScalerWatchingItsNamespace(LocalStack stack, @TempDir Path dir)
            throws Exception {
        connect = new ConnectRestClient(stack.endpoints().connectUrl());
        Map<String, String> config = connect.connectorConfig(SINK);
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
                        .withClassName(config.get("connector.class"))
                        .withTasksMax(Integer.parseInt(config.get("tasks.max")))
                        .endSpec()
                        .build())
                .create();
        reconciler = new KafkaConnectorReconciler(client, NAMESPACE, connect).start();

        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(
                kubeconfig,
                "apiVersion: v1\nkind: Config\nclusters:\n- name: stand-in\n  cluster:\n    server: "
                        + client.getMasterUrl()
                        + "\ncontexts:\n- name: stand-in\n  context:\n    cluster: stand-in\n    user: kcscale\n"
                        + "current-context: stand-in\nusers:\n- name: kcscale\n  user:\n    token: stand-in-token\n",
                StandardCharsets.UTF_8);
        service = new ScalerService(ScalerSettings.fromValues(Map.of(
                "connect.url", stack.endpoints().connectUrl().toString(),
                // a scaler of its own: replicas with one id share policies and a leader, the shared stack's included
                "scaler.cluster.id", "strimzi-scale-test",
                "kafka.bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                "elasticsearch.url", stack.endpoints().elasticsearchUrl().toString(),
                "state.dir", dir.resolve("state").toString(),
                "autoscale.interval.seconds", "1",
                "kubernetes.namespace", NAMESPACE,
                "kubernetes.kubeconfig", kubeconfig.toString(),
                "kubernetes.connect.cluster", "connect")));
        service.start();
        api = ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service));
        scaler = new ScalerHttp(URI.create("http://127.0.0.1:" + api.address().getPort()));
        Poll.until(SINK + " observed by the scaler", Duration.ofSeconds(60), Duration.ofSeconds(1), () -> {
            ScalerHttp.Answer a = scaler.get("/api/v1/connectors/" + SINK);
            if (a.status() == 200) {
                return Optional.of(a);
            }
            throw new IllegalStateException(a.raw());
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (api != null) {
            api.close();
        }
        if (service != null) {
            service.close();
        }
        if (reconciler != null) {
            reconciler.close();
        }
    }

    @Test
    @Order(1)
    void aScalePatchesTheResourceRetriesAConflictAndStrimziAppliesIt() {
        int before = tasksInConnect();
        int target = before > 1 ? before - 1 : 2;
        // the first patch meets a newer resourceVersion, as when someone edits the resource meanwhile
        server.expect()
                .patch()
                .withPath(RESOURCE_PATH)
                .andReturn(
                        409,
                        new StatusBuilder()
                                .withCode(409)
                                .withReason("Conflict")
                                .withMessage(
                                        "Operation cannot be fulfilled on kafkaconnectors.kafka.strimzi.io \"" + SINK
                                                + "\": the object has been modified; please apply your changes to the latest version and try again")
                                .build())
                .once();

        ScalerHttp.Answer answer =
                scaler.post("/api/v1/connectors/" + SINK + "/scale", "{\"tasks\":" + target + ",\"force\":true}");

        assertEquals(200, answer.status(), answer.raw());
        assertEquals(target, answer.body().path("tasksRunning").asInt(), answer.raw());
        assertTrue(
                answer.body().path("plan").asText().contains("spec.tasksMax on KafkaConnector kafka/" + SINK),
                answer.raw());
        assertEquals(target, resource().getSpec().getTasksMax());
        assertEquals(target, tasksInConnect(), "the reconciler applied the resource's tasksMax");
        assertEquals(target, connect.connectorStatus(SINK).tasksInState("RUNNING"));
        assertTrue(scaler.get("/metrics")
                .raw()
                .contains("kcscale_scale_actions_total{connector=\"" + SINK + "\",outcome=\"applied\"}"));
    }

    @Test
    @Order(2)
    void aPatchTheRoleForbidsIsRefusedInOneLineAndNotWrittenThroughConnect() {
        int before = tasksInConnect();
        String configBefore = connect.connectorConfig(SINK).toString();
        server.expect()
                .patch()
                .withPath(RESOURCE_PATH)
                .andReturn(
                        403,
                        new StatusBuilder()
                                .withCode(403)
                                .withReason("Forbidden")
                                .withMessage("kafkaconnectors.kafka.strimzi.io \"" + SINK
                                        + "\" is forbidden: User \"system:serviceaccount:kafka:kcscale\" "
                                        + "cannot patch resource \"kafkaconnectors\" in API group \"kafka.strimzi.io\"")
                                .build())
                .once();

        ScalerHttp.Answer answer =
                scaler.post("/api/v1/connectors/" + SINK + "/scale", "{\"tasks\":" + (before + 1) + ",\"force\":true}");

        assertEquals(422, answer.status(), answer.raw());
        String error = answer.body().path("error").asText();
        assertTrue(
                error.startsWith(
                        "the scaler may not patch kafkaconnectors in namespace kafka (Kubernetes answered 403)"),
                error);
        assertTrue(error.contains("not written through Kafka Connect's REST API"), error);
        assertEquals(1, error.lines().count(), error);
        assertEquals(before, resource().getSpec().getTasksMax());
        assertEquals(configBefore, connect.connectorConfig(SINK).toString(), "nothing written through Connect either");
        assertTrue(scaler.get("/metrics")
                .raw()
                .contains("kcscale_scale_actions_total{connector=\"" + SINK + "\",outcome=\"refused\"}"));
    }

    @Test
    @Order(3)
    void theAutoscalerScalesThroughTheResourceAsItsRecommendationSays() {
        int target = tasksInConnect() + 1;
        String policy = "/api/v1/connectors/" + SINK + "/autoscale";
        assertEquals(
                200,
                scaler.put(
                                policy,
                                "{\"minTasks\":" + target + ",\"maxTasks\":" + target
                                        + ",\"targetLag\":1000000,\"dryRun\":true}")
                        .status());
        // the policy's own answer, read with the placement it counts workers from: just after the scale before it,
        // Connect lists the new tasks UNASSIGNED for a moment and the group rebalances, and the evaluator rightly
        // holds (recommending the tasks there are, which can equal the target) until it assigns them
        JsonNode recommendation = Poll.until(
                "a recommendation of " + target + " tasks on a stable pipeline",
                Duration.ofSeconds(60),
                Duration.ofSeconds(1),
                () -> {
                    ScalerHttp.Answer a = scaler.get("/api/v1/connectors/" + SINK + "/recommendation");
                    JsonNode placed =
                            scaler.get("/api/v1/connectors/" + SINK).body().path("tasks");
                    int perWorker = tasksPerWorker(placed);
                    if (a.status() == 200
                            && a.body().path("tasks").asInt() == target
                            && !a.body().path("reason").asText().startsWith("the pipeline is not stable")
                            && a.body().path("tasksPerWorker").asInt() == perWorker) {
                        return Optional.of(a.body());
                    }
                    throw new IllegalStateException(a.raw() + " " + placed);
                });
        assertEquals(target, gaugeAt(GAUGE, "kcscale_recommended_tasks", target), 0);
        // the workers those tasks need, at the tasks per worker Connect runs now (as the recommendation was read with)
        int perWorker = recommendation.path("tasksPerWorker").asInt();
        int neededWorkers = (target + perWorker - 1) / perWorker;
        assertEquals(neededWorkers, recommendation.path("workers").asInt(), recommendation.toString());
        assertEquals(neededWorkers, gaugeAt(WORKERS_GAUGE, "kcscale_recommended_workers", neededWorkers), 0);

        assertEquals(
                200,
                scaler.put(policy, "{\"minTasks\":" + target + ",\"maxTasks\":" + target + ",\"targetLag\":1000000}")
                        .status());
        // the scale ends when its pause is measured, after the tasks run: wait for the recorded outcome, so that
        // the next test's scale does not meet this one still in progress
        JsonNode applied = Poll.until(
                "the autoscaler's scale through the resource", Duration.ofSeconds(150), Duration.ofSeconds(1), () -> {
                    JsonNode decisions = scaler.get(policy).body().path("decisions");
                    for (JsonNode d : decisions) {
                        if (d.path("outcome").asText().startsWith("applied")) {
                            return Optional.of(d);
                        }
                    }
                    throw new IllegalStateException(
                            "spec.tasksMax " + resource().getSpec().getTasksMax() + ", decisions " + decisions);
                });
        assertTrue(
                applied.path("outcome").asText().startsWith("applied: " + target + " tasks RUNNING"),
                applied.toString());
        assertEquals(target, resource().getSpec().getTasksMax());
        assertEquals(target, connect.connectorStatus(SINK).tasksInState("RUNNING"));
        assertEquals(200, scaler.delete(policy).status());
    }

    @Test
    @Order(4)
    void aTasksMaxAnotherActorSetMeanwhileAnswers409NamingItAndIsKept() {
        int before = tasksInConnect();
        int theirs = before + 1;
        int ours = before > 1 ? before - 1 : before + 2;
        // another actor (kubectl edit, KEDA, another scaler) sets spec.tasksMax, which the operator has not yet
        // applied to Connect: the scale's checks see Connect's count, the resource holds another
        reconciler.pause();
        try {
            client.resources(KafkaConnector.class, KafkaConnectorList.class)
                    .inNamespace(NAMESPACE)
                    .withName(SINK)
                    .edit(r -> new KafkaConnectorBuilder(r)
                            .editSpec()
                            .withTasksMax(theirs)
                            .endSpec()
                            .build());

            ScalerHttp.Answer answer =
                    scaler.post("/api/v1/connectors/" + SINK + "/scale", "{\"tasks\":" + ours + ",\"force\":true}");

            assertEquals(409, answer.status(), answer.raw());
            String error = answer.body().path("error").asText();
            assertTrue(
                    error.startsWith("spec.tasksMax of KafkaConnector " + NAMESPACE + "/" + SINK + " is " + theirs
                            + ", not the " + before + " the scale's checks saw"),
                    error);
            assertEquals(1, error.lines().count(), error);
            assertEquals(theirs, resource().getSpec().getTasksMax(), "the other actor's count stands");
            assertEquals(before, tasksInConnect(), "nothing written through Connect");
        } finally {
            reconciler.resume();
        }
        Poll.until(
                "the operator applying the other actor's count", Duration.ofSeconds(90), Duration.ofSeconds(1), () -> {
                    if (connect.connectorStatus(SINK).tasksInState("RUNNING") == theirs) {
                        return Optional.of(true);
                    }
                    throw new IllegalStateException(
                            connect.connectorStatus(SINK).toString());
                });
        assertEquals(theirs, resource().getSpec().getTasksMax());
    }

    private static KafkaConnector resource() {
        return client.resources(KafkaConnector.class, KafkaConnectorList.class)
                .inNamespace(NAMESPACE)
                .withName(SINK)
                .get();
    }

    private static int tasksInConnect() {
        return Integer.parseInt(connect.connectorConfig(SINK).get("tasks.max"));
    }

    /**
     * The gauge {@code gauge} matches, once it reads {@code expected}: the autoscaler's round sets it, and may still
     * hold the recommendation before the one just read.
     */
    private static double gaugeAt(Pattern gauge, String name, int expected) {
        return Poll.until(name + " at " + expected, Duration.ofSeconds(30), Duration.ofSeconds(1), () -> {
            Matcher m = gauge.matcher(scaler.get("/metrics").raw());
            if (!m.find()) {
                throw new IllegalStateException("no " + name + " yet");
            }
            double value = Double.parseDouble(m.group(1));
            if (value != expected) {
                throw new IllegalStateException(name + " " + value);
            }
            return Optional.of(value);
        });
    }

    /** Tasks per worker as Connect places them now: the placed tasks over the workers they run on, rounded up. */
    private static int tasksPerWorker(JsonNode placed) {
        Set<String> workers = new HashSet<>();
        int onWorkers = 0;
        for (JsonNode task : placed) {
            if (task.hasNonNull("workerId")) {
                workers.add(task.path("workerId").asText());
                onWorkers++;
            }
        }
        return workers.isEmpty() ? 1 : (onWorkers + workers.size() - 1) / workers.size();
    }
}
