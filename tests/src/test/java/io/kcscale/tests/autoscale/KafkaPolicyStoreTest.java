package io.kcscale.tests.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.StoredPolicy;
import io.kcscale.scaler.kafka.KafkaLeadership;
import io.kcscale.scaler.kafka.KafkaPolicyStore;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.InProcessScaler;
import io.kcscale.tests.fixtures.SharedStack;
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
import org.apache.kafka.common.GroupState;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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
            Decision d = new Decision(1, Decision.Action.SCALE_UP, 1, 2, "ratio", "backlog", Map.of("lag", 5000L));
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
}
