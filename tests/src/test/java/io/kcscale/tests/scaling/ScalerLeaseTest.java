package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.lab.chaos.ConnectConfigWrites;
import io.kcscale.lab.chaos.ConnectGate;
import io.kcscale.local.ChildJvm;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.FreePort;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The autoscaler's lease with real scaler processes on the shared stack, each test with replicas of its own
 * scaler.cluster.id: a leader frozen (SIGSTOP) inside a scale past its lease writes nothing once thawed (SIGCONT)
 * while the next leader writes the decision once; and a leader killed, whose group Kafka then dropped, is followed by
 * a new replica within 30 s.
 */
@Order(7)
@ExtendWith(SharedStack.class)
class ScalerLeaseTest {

    private static final String SINK = StackOptions.SINK_CONNECTOR;
    private static final String AUTOSCALE = "/api/v1/connectors/" + SINK + "/autoscale";
    private static final Duration LEADER_LIMIT = Duration.ofSeconds(30);

    /** A scaler of the test's own as its own process, through {@code connect} to Connect. */
    private record Replica(ChildJvm process, ScalerHttp http) {
        static Replica start(LocalStack stack, String name, URI connect, String clusterId) {
            int port = FreePort.any();
            ChildJvm process = stack.startScaler(
                    name, port, connect, stack.endpoints().kafkaBootstrap(), List.of("--scaler-cluster-id", clusterId));
            Replica r = new Replica(process, new ScalerHttp(URI.create("http://127.0.0.1:" + port)));
            Poll.until("the scaler " + name + " to lead", Duration.ofSeconds(120), Duration.ofMillis(250), () -> {
                if (!process.isAlive()) {
                    throw new Poll.Abort(name + " exited:\n" + process.logTail(30));
                }
                return Optional.of(r.http.get("/api/v1/instance").body())
                        .filter(i -> i.path("leader").asBoolean());
            });
            return r;
        }

        boolean logged(String line) {
            try {
                return Files.readString(process.logFile(), StandardCharsets.ISO_8859_1)
                        .contains(line);
            } catch (IOException e) {
                return false;
            }
        }
    }

    @Test
    void aLeaderFrozenInsideItsScaleWritesNothingOnceThawedAndTheNextLeaderWritesTheDecisionOnce(LocalStack stack)
            throws Exception {
        String id = "lease-freeze-" + UUID.randomUUID();
        try (StackProbe probe = new StackProbe(stack);
                ConnectGate gate = ConnectGate.start(stack.endpoints().connectUrl())) {
            int tasks = tasksMax(probe);
            Replica a = Replica.start(stack, "scaler-frozen", gate.url(), id);
            String aId = a.http.get("/api/v1/instance").body().path("id").asText();
            try (InProcessScaler b = InProcessScaler.start(stack, Map.of("scaler.cluster.id", id))) {
                assertFalse(b.http.get("/api/v1/instance").body().path("leader").asBoolean());
                // the scale's own read of the config passes; Connect's answer to its writer's check is held
                gate.arm("GET", "/connectors/" + SINK + "/config", 1);
                long from = ConnectConfigWrites.end(stack);
                assertEquals(
                        200,
                        b.http.put(
                                        AUTOSCALE,
                                        "{\"minTasks\":" + (tasks + 1) + ",\"maxTasks\":" + (tasks + 1)
                                                + ",\"targetLag\":1000000}")
                                .status());
                assertTrue(gate.awaitHeld(Duration.ofSeconds(120)), "the leader scales: " + a.process.logTail(20));
                a.process.suspend();
                long frozen = System.nanoTime();

                b.http.awaitGet("/api/v1/instance", i -> i.path("leader").asBoolean(), Duration.ofSeconds(60));
                System.out.printf(
                        "[measure] a leader frozen inside its scale: the next leads %.1f s later%n",
                        (System.nanoTime() - frozen) / 1e9);
                JsonNode decisions = b.http.awaitGet(
                                AUTOSCALE,
                                s -> s.path("decisions")
                                        .path(0)
                                        .path("outcome")
                                        .asText()
                                        .startsWith("applied"),
                                Duration.ofSeconds(120))
                        .path("decisions");
                assertEquals(
                        tasks + 1,
                        decisions.get(0).path("decision").path("toTasks").asInt(),
                        decisions.toString());
                assertEquals(
                        List.of("applied", "not applied: the leader stopped while applying it; tasks.max is " + tasks),
                        StreamSupport.stream(decisions.spliterator(), false)
                                .filter(d -> d.path("decision").path("toTasks").asInt() == tasks + 1)
                                .map(d -> d.path("outcome").asText())
                                .map(o -> o.startsWith("applied") ? "applied" : o)
                                .toList(),
                        "the frozen leader's intent settled from Connect, not applied again; then applied once: "
                                + decisions);

                gate.open();
                a.process.resume();
                long thawed = System.nanoTime();
                String abandoned = "the scale of " + SINK + " to " + (tasks + 1)
                        + " tasks is abandoned: PATCH /connectors/" + SINK + "/config not sent: the lease of " + aId;
                // thawed, its Connect client's 3 s timeout, long past, races the held answer: the answer lets the scale
                // reach its write, which the fence stops; the timeout fails the read before it (the retried read sees
                // the new leader's write, a conflict). Either way nothing may be sent.
                String failed = "the scale of " + SINK + " to " + (tasks + 1) + " tasks failed: ";
                Poll.untilTrue(
                        "the thawed leader's scale to end, its write stopped",
                        Duration.ofSeconds(60),
                        Duration.ofMillis(250),
                        () -> a.logged(abandoned) || a.logged(failed),
                        () -> a.process.logTail(20));
                System.out.printf(
                        "[measure] the leader thawed after %.1f s frozen; %s %.1f s later%n",
                        (thawed - frozen) / 1e9,
                        a.logged(abandoned) ? "its fence stopped its write" : "its scale failed before its write",
                        (System.nanoTime() - thawed) / 1e9);
                assertEquals(List.of(), gate.writes(), "the thawed leader sent Connect no write");
                assertEquals(
                        1,
                        ConnectConfigWrites.since(stack, SINK, from),
                        "one write of the connector's config, the new leader's");
                assertEquals(tasks + 1, tasksMax(probe));
                assertFalse(a.http.get("/api/v1/instance").body().path("leader").asBoolean());
                assertEquals(200, b.http.delete(AUTOSCALE).status());
            } finally {
                a.process.kill();
                ScalerHttp own = new ScalerHttp(stack.endpoints().scalerUrl());
                own.post("/api/v1/connectors/" + SINK + "/scale", "{\"tasks\":" + tasks + "}");
            }
        }
    }

    @Test
    void aReplicaLeadsWithin30sOfItsStartWhenTheLeaderDiedAndKafkaDroppedTheGroup(LocalStack stack) throws Exception {
        String id = "lease-group-" + UUID.randomUUID();
        String group = "kcscale-" + id + "-leader";
        Replica dead = Replica.start(stack, "scaler-dead", stack.endpoints().connectUrl(), id);
        String deadId = dead.http.get("/api/v1/instance").body().path("id").asText();
        dead.process.kill();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap()))) {
            // what Kafka's own clean-up does to an empty group, once the dead member has timed out
            Poll.untilTrue(
                    "the group " + group + " deleted",
                    Duration.ofSeconds(60),
                    Duration.ofMillis(500),
                    () -> {
                        try {
                            admin.deleteConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS);
                            return true;
                        } catch (Exception notEmptyYet) {
                            throw new IllegalStateException(notEmptyYet.getMessage());
                        }
                    },
                    () -> "not deleted");
        }
        long started = System.nanoTime();
        try (InProcessScaler fresh = InProcessScaler.start(stack, Map.of("scaler.cluster.id", id))) {
            JsonNode before = fresh.http.get("/api/v1/instance").body();
            assertEquals(deadId, before.path("leaderId").asText(), "it reads the dead leader's lease first: " + before);
            JsonNode led = fresh.http.awaitGet(
                    "/api/v1/instance", i -> i.path("leader").asBoolean(), LEADER_LIMIT.plusSeconds(30));
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(
                    "[measure] a new replica of a deleted leader group leads %.1f s after its start%n", seconds);
            assertTrue(seconds <= LEADER_LIMIT.toSeconds(), "led after " + seconds + " s");
            assertEquals(led.path("id").asText(), led.path("leaderId").asText());
            assertTrue(led.path("autoscaling").asBoolean());
        }
    }

    private static int tasksMax(StackProbe probe) {
        return Integer.parseInt(probe.connect.connectorConfig(SINK).get("tasks.max"));
    }
}
