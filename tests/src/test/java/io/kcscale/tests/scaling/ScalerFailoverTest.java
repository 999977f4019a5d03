package io.kcscale.tests.scaling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several scaler replicas against one stack: the stack's own scaler (a child process, which `up` started first)
 * and in-process ones with the same settings. Exactly one leads; a policy set through any is seen by all; the
 * leader killed with SIGKILL is followed by another within 30 s (measured), with every policy kept, its applied
 * decision not applied again and the next scale applied by the new leader; a replica restarted with an empty
 * state directory has every policy before it answers.
 */
@Order(7)
@ExtendWith(SharedStack.class)
class ScalerFailoverTest {

    private static final String AUTOSCALE = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR + "/autoscale";
    private static final Duration FAILOVER_LIMIT = Duration.ofSeconds(30);

    /** An in-process replica with its API, sharing the stack's state topic and leadership group (the defaults). */
    private record Replica(ScalerService service, ApiServer api, ScalerHttp http) implements AutoCloseable {
        static Replica start(LocalStack stack) throws Exception {
            ScalerService service = new ScalerService(ScalerSettings.fromValues(Map.of(
                    "connect.url", stack.endpoints().connectUrl().toString(),
                    "kafka.bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                    "elasticsearch.url", stack.endpoints().elasticsearchUrl().toString(),
                    "state.dir",
                            Files.createTempDirectory("kcscale-replica-state").toString())));
            service.start();
            ApiServer api =
                    ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Optional.of(service));
            return new Replica(
                    service,
                    api,
                    new ScalerHttp(
                            URI.create("http://127.0.0.1:" + api.address().getPort())));
        }

        @Override
        public void close() throws Exception {
            api.close();
            service.close();
        }
    }

    @Test
    void oneLeaderAmongReplicasAnotherWithin30sOfItsKillEveryPolicyKeptNothingAppliedTwice(LocalStack stack)
            throws Exception {
        ScalerHttp child = new ScalerHttp(stack.endpoints().scalerUrl());
        List<Replica> replicas = new ArrayList<>();
        try (StackProbe probe = new StackProbe(stack)) {
            int tasks = Integer.parseInt(
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"));
            replicas.add(Replica.start(stack));
            String leader = awaitOneLeader(List.of(child, replicas.get(0).http()));
            replicas.add(Replica.start(stack));
            List<ScalerHttp> all =
                    List.of(child, replicas.get(0).http(), replicas.get(1).http());
            assertEquals(leader, awaitOneLeader(all), "a replica joining does not move leadership");
            assertEquals(
                    leader,
                    child.get("/api/v1/instance").body().path("id").asText(),
                    "the stack's scaler, started first, leads");

            // set through a follower, seen by all, applied by the leader
            String policy = "{\"minTasks\":" + (tasks + 1) + ",\"maxTasks\":" + (tasks + 1) + ",\"targetLag\":1000000}";
            assertEquals(200, replicas.get(0).http().put(AUTOSCALE, policy).status());
            for (ScalerHttp r : all) {
                Poll.untilTrue(
                        "every replica to read the policy",
                        Duration.ofSeconds(10),
                        Duration.ofMillis(200),
                        () -> r.get(AUTOSCALE)
                                        .body()
                                        .path("policy")
                                        .path("maxTasks")
                                        .asInt()
                                == tasks + 1,
                        () -> r.get(AUTOSCALE).raw());
            }
            awaitApplied(replicas.get(1).http(), tasks + 1);

            // the leader is killed with SIGKILL: no goodbye to the group
            stack.component("scaler").kill();
            long killed = System.nanoTime();
            List<ScalerHttp> survivors =
                    List.of(replicas.get(0).http(), replicas.get(1).http());
            String next = Poll.until(
                    "another replica to lead",
                    FAILOVER_LIMIT,
                    Duration.ofMillis(200),
                    () -> survivors.stream()
                            .map(r -> r.get("/api/v1/instance").body())
                            .filter(i -> i.path("leader").asBoolean())
                            .map(i -> i.path("id").asText())
                            .findFirst());
            Duration failover = Duration.ofNanos(System.nanoTime() - killed);
            System.out.println("[measure] failover after SIGKILL of the leader: " + failover.toMillis() + " ms ("
                    + leader + " -> " + next + ")");
            assertEquals(next, awaitOneLeader(survivors));

            for (ScalerHttp r : survivors) {
                JsonNode state = r.get(AUTOSCALE).body();
                assertEquals(tasks + 1, state.path("policy").path("maxTasks").asInt(), "the policy is kept: " + state);
                assertEquals(1, applied(state, tasks + 1), "applied once: " + state.path("decisions"));
            }
            assertEquals(
                    String.valueOf(tasks + 1),
                    probe.connect.connectorConfig(StackOptions.SINK_CONNECTOR).get("tasks.max"));

            // the new leader applies the next change, once
            ScalerHttp follower = replicas.get(0).service().instanceId().equals(next)
                    ? replicas.get(1).http()
                    : replicas.get(0).http();
            assertEquals(
                    200,
                    follower.put(
                                    AUTOSCALE,
                                    "{\"minTasks\":" + (tasks + 2) + ",\"maxTasks\":" + (tasks + 2)
                                            + ",\"targetLag\":1000000}")
                            .status());
            awaitApplied(follower, tasks + 2);
            assertEquals(1, applied(follower.get(AUTOSCALE).body(), tasks + 2));
            assertEquals(
                    tasks + 2,
                    probe.connect.connectorStatus(StackOptions.SINK_CONNECTOR).tasksInState("RUNNING"));

            // a follower restarted with an empty state directory has every policy once started
            Replica restarted =
                    replicas.get(0).service().instanceId().equals(next) ? replicas.remove(1) : replicas.remove(0);
            restarted.close();
            replicas.add(Replica.start(stack));
            assertEquals(
                    tasks + 2,
                    replicas.get(1)
                            .service()
                            .scaler()
                            .policy(StackOptions.SINK_CONNECTOR)
                            .orElseThrow()
                            .policy()
                            .maxTasks(),
                    "read to the end before it answers");

            assertEquals(200, replicas.get(1).http().delete(AUTOSCALE).status(), "the new replica takes changes too");
            // the other replica learns of the deletion from the state topic; until then it refuses a manual scale
            Poll.untilTrue(
                    "the other replica to read the policy's deletion",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(200),
                    () -> replicas.get(0).http().get(AUTOSCALE).status() == 404,
                    () -> replicas.get(0).http().get(AUTOSCALE).raw());
            assertEquals(
                    200,
                    replicas.get(0)
                            .http()
                            .post(
                                    "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR + "/scale",
                                    "{\"tasks\":" + tasks + "}")
                            .status());
        } finally {
            for (Replica r : replicas) {
                r.close();
            }
            stack.restart("scaler");
        }
    }

    /** Until exactly one replica says it leads and every one names it; its id. */
    private static String awaitOneLeader(List<ScalerHttp> replicas) {
        return Poll.until(
                "exactly one leader that every replica names", Duration.ofSeconds(60), Duration.ofMillis(200), () -> {
                    List<JsonNode> instances = replicas.stream()
                            .map(r -> r.get("/api/v1/instance").body())
                            .toList();
                    List<String> leaders = instances.stream()
                            .filter(i -> i.path("leader").asBoolean())
                            .map(i -> i.path("id").asText())
                            .toList();
                    boolean agreed = leaders.size() == 1
                            && instances.stream()
                                    .allMatch(i -> i.path("leaderId").asText().equals(leaders.get(0)));
                    if (!agreed) {
                        throw new IllegalStateException("instances " + instances);
                    }
                    return Optional.of(leaders.get(0));
                });
    }

    private static void awaitApplied(ScalerHttp replica, int toTasks) {
        Poll.untilTrue(
                "a decision to " + toTasks + " tasks applied",
                Duration.ofSeconds(120),
                Duration.ofSeconds(1),
                () -> applied(replica.get(AUTOSCALE).body(), toTasks) > 0,
                () -> replica.get(AUTOSCALE).body().path("decisions").toString());
    }

    /** The decisions to {@code toTasks} that were applied. */
    private static long applied(JsonNode state, int toTasks) {
        return StreamSupport.stream(state.path("decisions").spliterator(), false)
                .filter(d -> d.path("outcome").asText().startsWith("applied")
                        && d.path("decision").path("toTasks").asInt() == toTasks)
                .count();
    }
}
