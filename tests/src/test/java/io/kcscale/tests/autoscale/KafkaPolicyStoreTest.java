package io.kcscale.tests.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.StoredPolicy;
import io.kcscale.scaler.kafka.KafkaLeadership;
import io.kcscale.scaler.kafka.KafkaPolicyStore;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.SharedStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka adapters behind the autoscaler's ports, on the stack's real broker, each test on a topic and group
 * of its own: what one store writes every other reads (a new one at once, having read to the end), a pause racing
 * a DELETE brings nothing back, a deposed lease's writes do not count, and the group nominates exactly one member,
 * then another when it goes; a scaler whose state topic Kafka refuses at start autoscales once it can read it.
 */
@Order(7)
@ExtendWith(SharedStack.class)
class KafkaPolicyStoreTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final AutoscalePolicy POLICY =
            new AutoscalePolicy(1, 6, null, 1000L, null, null, null, null, null, null).validated();

    private static KafkaPolicyStore store(LocalStack stack, String topic) {
        KafkaPolicyStore store = new KafkaPolicyStore(stack.endpoints().kafkaBootstrap(), Map.of(), topic, TIMEOUT);
        store.start();
        return store;
    }

    @Test
    void everyStoreReadsTheSameStateAndAPauseRacingADeleteBringsNothingBack(LocalStack stack) {
        String topic = "kcscale-test-state-" + UUID.randomUUID();
        try (KafkaPolicyStore one = store(stack, topic);
                KafkaPolicyStore two = store(stack, topic)) {
            StoredPolicy put = one.put("sink", POLICY);
            assertEquals(
                    Optional.of(POLICY),
                    one.policy("sink").map(StoredPolicy::policy),
                    "the writer reads its own write");
            Poll.untilTrue(
                    "the other store to read the policy",
                    TIMEOUT,
                    Duration.ofMillis(100),
                    () -> two.policy("sink").isPresent(),
                    () -> String.valueOf(two.policies()));
            assertEquals(put.version(), two.policy("sink").orElseThrow().version());

            Lease lease = new Lease("a", 3);
            assertTrue(one.claim(lease, 12_000));
            Decision d = new Decision(
                    1,
                    Decision.Action.SCALE_UP,
                    1,
                    2,
                    "ratio",
                    "backlog",
                    new DecisionInputs.Builder().lag(5000).build());
            assertTrue(one.recordDecisions(
                    "sink", put.version(), lease, List.of(new DecisionRecord(d, "applied: 2 tasks RUNNING"))));
            assertFalse(two.claim(new Lease("b", 3), 12_000), "a claim read the same epoch as a's: a's came first");
            assertFalse(two.recordDecisions("sink", put.version(), new Lease("b", 3), List.of()), "nor its decisions");
            assertTrue(one.renew(lease, 12_000));
            assertEquals(2, one.leaseTerm().orElseThrow().records(), "a claim and a renewal: " + one.leaseTerm());

            // a forced scale on two paused the version it saw, but one's DELETE landed first
            assertTrue(one.remove("sink"));
            two.pause("sink", put.version());
            assertEquals(Optional.empty(), two.policy("sink"));
            assertFalse(two.remove("sink"), "nothing left to delete");

            StoredPolicy again = two.put("sink", POLICY);
            one.pause("sink", put.version());
            try (KafkaPolicyStore fresh = store(stack, topic)) {
                StoredPolicy read = fresh.policy("sink")
                        .orElseThrow(() -> new AssertionError("a new store reads to the end before it answers"));
                assertEquals(again.version(), read.version());
                assertFalse(read.policy().dryRun(), "the stale pause does not pause the policy PUT since");
                assertEquals(List.of(), read.decisions(), "decisions of a deleted version are not the new one's");
                assertEquals(Optional.of(lease), fresh.leader());
            }
        }
    }

    @Test
    void theGroupNominatesOneMemberAndAnotherWhenItGoes(LocalStack stack) {
        String topic = "kcscale-test-state-" + UUID.randomUUID();
        String group = topic + "-leader";
        try (KafkaPolicyStore store = store(stack, topic);
                Admin admin = Admin.create(Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.endpoints().kafkaBootstrap()));
                KafkaLeadership first = new KafkaLeadership(
                        stack.endpoints().kafkaBootstrap(), Map.of(), topic, group, "first", TIMEOUT);
                KafkaLeadership second = new KafkaLeadership(
                        stack.endpoints().kafkaBootstrap(), Map.of(), topic, group, "second", TIMEOUT)) {
            first.start();
            Poll.untilTrue(
                    "the first member nominated",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    first::nominated,
                    () -> "not yet");
            second.start();
            // joining is a rebalance: once the group is stable with both, the partition must still be the first's
            Poll.untilTrue(
                    "both members in a stable group",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(200),
                    () -> stableMembers(admin, group) == 2,
                    () -> "members " + stableMembers(admin, group));
            assertTrue(first.nominated(), "the cooperative-sticky assignor leaves the partition with its owner");
            assertFalse(second.nominated());

            first.close();
            Poll.untilTrue(
                    "the second member nominated",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    second::nominated,
                    () -> "not yet");
        }
    }

    /** The group's members while it is stable; -1 while it rebalances. */
    private static int stableMembers(Admin admin, String group) {
        try {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group))
                    .describedGroups()
                    .get(group)
                    .get(10, TimeUnit.SECONDS);
            return d.groupState() == GroupState.STABLE ? d.members().size() : -1;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aScalerWhoseStateTopicKafkaRefusesAtStartAutoscalesOnceItCanReadIt(LocalStack stack) throws Exception {
        String id = "state-retry-" + UUID.randomUUID();
        String topic = "kcscale-" + id + "-state";
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap()))) {
            // a state topic the scaler cannot use: two partitions would give the replicas no one order
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            try (InProcessScaler scaler = InProcessScaler.start(stack, Map.of("scaler.cluster.id", id))) {
                JsonNode off = scaler.http.get("/api/v1/instance").body();
                assertFalse(off.path("autoscaling").asBoolean(), off.toString());
                assertTrue(
                        off.path("autoscalingOff").asText().contains("the state topic " + topic + " has 2 partitions"),
                        off.toString());

                admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                JsonNode on = scaler.http.awaitGet(
                        "/api/v1/instance",
                        b -> b.path("autoscaling").asBoolean()
                                && b.path("leader").asBoolean(),
                        Duration.ofSeconds(120));
                assertFalse(on.has("autoscalingOff"), on.toString());
                assertEquals(
                        1,
                        admin.describeTopics(List.of(topic))
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .get(topic)
                                .partitions()
                                .size(),
                        "the scaler created its topic once it could");
            }
        }
    }

    @Test
    void aStateTopicThatIsNotCompactedIsRefusedWithTheCommandThatFixesItAndUsedOnceFixed(
            LocalStack stack, @TempDir Path kafkaHome) throws Exception {
        String id = "state-delete-" + UUID.randomUUID();
        String topic = "kcscale-" + id + "-state";
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.endpoints().kafkaBootstrap()))) {
            // made by hand, as deleting topics: the policies would go after retention.ms
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            try (InProcessScaler scaler = InProcessScaler.start(stack, Map.of("scaler.cluster.id", id))) {
                JsonNode off = scaler.http.get("/api/v1/instance").body();
                assertFalse(off.path("autoscaling").asBoolean(), off.toString());
                String why = off.path("autoscalingOff").asText();
                String fix = "kafka-configs.sh --bootstrap-server "
                        + stack.endpoints().kafkaBootstrap()
                        + " --alter --entity-type topics --entity-name " + topic
                        + " --add-config cleanup.policy=compact";
                assertTrue(
                        why.contains("the state topic " + topic + " has cleanup.policy=delete, so Kafka would delete"
                                + " its policies after retention.ms; make it compacted: " + fix),
                        why);
                assertFalse(why.contains("\n"), "one line: " + why);

                // the command as the line gives it, through kafka-configs.sh's own class on the broker's classpath
                Path bin = Files.createDirectories(kafkaHome.resolve("bin"));
                Path configs = bin.resolve("kafka-configs.sh");
                Files.writeString(
                        configs,
                        "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -cp '"
                                + new InstallLayout(RepositoryFiles.home()).kafkaClasspath()
                                + "' kafka.admin.ConfigCommand \"$@\"\n");
                assertTrue(configs.toFile().setExecutable(true));
                Commands.runOk(
                        kafkaHome,
                        Duration.ofSeconds(120),
                        List.of("sh", "-c", "PATH=" + bin + ":$PATH " + why.substring(why.indexOf(fix))));

                JsonNode on = scaler.http.awaitGet(
                        "/api/v1/instance",
                        b -> b.path("autoscaling").asBoolean()
                                && b.path("leader").asBoolean(),
                        Duration.ofSeconds(120));
                JsonNode state = on.path("stateTopic");
                assertEquals(topic, state.path("name").asText(), on.toString());
                assertEquals(1, state.path("partitions").asInt());
                assertEquals(1, state.path("replicationFactor").asInt(), "the one broker of the stack");
                assertEquals(1, state.path("minInsyncReplicas").asInt());
            }
        }
    }

    @Test
    void recordsThePreviousFormatWroteAreReadFromTheTopicAndANewClaimFollowsTheirLease(LocalStack stack)
            throws Exception {
        String topic = "kcscale-test-state-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.endpoints().kafkaBootstrap()));
                KafkaProducer<String, String> producer = new KafkaProducer<>(
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                stack.endpoints().kafkaBootstrap()),
                        new StringSerializer(),
                        new StringSerializer())) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)
                            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            // what the previous format's codec wrote, without a format header
            for (String[] r : List.of(
                    new String[] {
                        "policy/sink",
                        "{\"minTasks\":2,\"maxTasks\":6,\"targetLatencySeconds\":null,\"targetLag\":50000,"
                                + "\"cooldownSeconds\":null,\"scaleDownIdleFraction\":0.75,\"utilization\":0.8,"
                                + "\"drainSeconds\":60.0,\"dryRun\":false,\"targetLagSeconds\":30.0}"
                    },
                    new String[] {"leader", "{\"leaderId\":\"scaler-1f2e\",\"generation\":3}"},
                    new String[] {
                        "decisions/sink",
                        "{\"leaderId\":\"scaler-1f2e\",\"generation\":3,\"policyVersion\":0,\"decisions\":[{"
                                + "\"decision\":{\"atMillis\":1767225600000,\"action\":\"SCALE_UP\",\"fromTasks\":2,"
                                + "\"toTasks\":4,\"code\":\"ratio\",\"reason\":\"backlog\",\"inputs\":{}},"
                                + "\"outcome\":\"applied: 4 tasks RUNNING\"}]}"
                    })) {
                producer.send(new ProducerRecord<>(topic, 0, r[0], r[1])).get(30, TimeUnit.SECONDS);
            }
            try (KafkaPolicyStore store = store(stack, topic)) {
                StoredPolicy p = store.policy("sink").orElseThrow(() -> new AssertionError(store.policies()));
                assertEquals(6, p.policy().maxTasks());
                assertEquals(Optional.of(30.0), Optional.ofNullable(p.policy().targetLagSeconds()));
                assertEquals(1, p.decisions().size(), "the decisions under the format-1 lease: " + p);
                assertEquals("applied: 4 tasks RUNNING", p.decisions().get(0).outcome());
                assertEquals(Optional.of(new Lease("scaler-1f2e", 3)), store.leader());
                assertEquals(
                        10_000,
                        store.leaseTerm().orElseThrow().durationMillis(),
                        "the group's session timeout: how long a format-1 leader held once silent");

                assertTrue(store.claim(new Lease("next", 4), 12_000), "the next epoch supersedes it");
                assertTrue(store.recordDecisions("sink", p.version(), new Lease("next", 4), p.decisions()));
            }
            try (KafkaPolicyStore again = store(stack, topic)) {
                assertEquals(Optional.of(new Lease("next", 4)), again.leader(), "read back in both formats");
                assertEquals(1, again.policy("sink").orElseThrow().decisions().size());
            }
        }
    }
}
