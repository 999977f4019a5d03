package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RebalanceConfigCheckTest {

    private static final RebalanceConfigCheck CHECK = new RebalanceConfigCheck();

    private static Fixture tuned() {
        Fixture f = new Fixture();
        f.groupAssignor = "cooperative-sticky";
        f.sinkConfig.put("consumer.override.session.timeout.ms", "6000");
        f.sinkConfig.put("consumer.override.heartbeat.interval.ms", "1500");
        return f;
    }

    @Test
    void kafkasDefaultsAreEagerWithALongSessionAndTheAdviceIsTheOverridesToPaste() {
        Finding f = new Fixture().run(CHECK);
        assertEquals(Severity.WARNING, f.severity());
        assertEquals("range", f.evidence().get("assignor"));
        assertEquals("group", f.evidence().get("assignorFrom"));
        assertEquals(false, f.evidence().get("cooperative"));
        assertEquals(45_000L, f.evidence().get("sessionTimeoutMs"));
        assertEquals("default", f.evidence().get("sessionTimeoutFrom"));
        assertEquals(3_000L, f.evidence().get("heartbeatIntervalMs"));
        assertTrue(
                f.title()
                        .startsWith(
                                "eager assignment (range): every rebalance, each scale included, stops all 3 tasks"),
                f.title());
        assertTrue(
                f.advice()
                        .contains("\"consumer.override.partition.assignment.strategy\": "
                                + "\"org.apache.kafka.clients.consumer.CooperativeStickyAssignor\""),
                f.advice());
        assertTrue(f.advice().contains("\"consumer.override.session.timeout.ms\": \"6000\""), f.advice());
        assertTrue(f.advice().contains("\"consumer.override.heartbeat.interval.ms\": \"1500\""), f.advice());
    }

    @Test
    void cooperativeWithAShortSessionIsOk() {
        Finding f = tuned().run(CHECK);
        assertEquals(Severity.OK, f.severity(), f.title());
        assertEquals("connector", f.evidence().get("sessionTimeoutFrom"));
    }

    @ParameterizedTest(name = "session {0} ms, heartbeat {1} ms: {2}")
    @CsvSource({"6000, 2000, OK", "6000, 2001, WARNING", "10000, 3000, OK", "10001, 3000, INFO"})
    void theHeartbeatIsAtMostAThirdAndTheSessionShort(String session, String heartbeat, Severity expected) {
        Fixture f = tuned();
        f.sinkConfig.put("consumer.override.session.timeout.ms", session);
        f.sinkConfig.put("consumer.override.heartbeat.interval.ms", heartbeat);
        assertEquals(expected, f.run(CHECK).severity());
    }

    @Test
    void theWorkersConsumerSettingsApplyUnlessTheConnectorOverridesThem() {
        Fixture f = new Fixture();
        f.groupAssignor = "cooperative-sticky";
        f.workerConfig = Map.of("consumer.session.timeout.ms", "9000", "consumer.heartbeat.interval.ms", "3000");
        Finding finding = f.run(CHECK);
        assertEquals(Severity.OK, finding.severity());
        assertEquals(9_000L, finding.evidence().get("sessionTimeoutMs"));
        assertEquals("worker", finding.evidence().get("sessionTimeoutFrom"));
        f.sinkConfig.put("consumer.override.session.timeout.ms", "7000");
        assertEquals(7_000L, f.run(CHECK).evidence().get("sessionTimeoutMs"));
    }

    @Test
    void aGroupWithoutMembersIsJudgedByItsConfiguredStrategy() {
        Fixture f = tuned();
        f.groupAssignor = "";
        Finding defaults = f.run(CHECK);
        assertEquals(
                "range", defaults.evidence().get("assignor"), "Kafka's default list starts with the range assignor");
        assertEquals("default", defaults.evidence().get("assignorFrom"));
        f.sinkConfig.put(
                "consumer.override.partition.assignment.strategy", "class " + RebalanceConfigCheck.COOPERATIVE_CLASS);
        assertEquals(Severity.OK, f.run(CHECK).severity());
        assertEquals(
                "roundrobin",
                RebalanceConfigCheck.firstAssignor(" org.apache.kafka.clients.consumer.RoundRobinAssignor ,x"));
        assertEquals(
                "com.example.Mine".replaceFirst(".*\\.", ""), RebalanceConfigCheck.firstAssignor("com.example.Mine"));
    }

    @Test
    void theConsumerProtocolIsIncrementalAndSetsTheSessionOnTheBroker() {
        Fixture f = new Fixture();
        f.groupProtocol = "CONSUMER";
        f.groupAssignor = "uniform";
        Finding finding = f.run(CHECK);
        assertEquals(Severity.OK, finding.severity(), finding.title());
        assertEquals(true, finding.evidence().get("cooperative"));
    }

    @Test
    void withoutTheSinkConfigItIsInfo() {
        Fixture f = new Fixture();
        f.sinkConfig = null;
        assertEquals(Severity.INFO, f.run(CHECK).severity());
    }
}
