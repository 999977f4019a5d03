package io.kcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code scaler.cluster.id}, {@code state.topic}, {@code leader.group}: the replicas that share state and a leader. */
class StateTopicSettingTest {

    private static ScalerSettings with(Map<String, String> extra) {
        Map<String, String> values = new HashMap<>(Map.of(
                "connect.url",
                "http://127.0.0.1:8083",
                "kafka.bootstrap.servers",
                "127.0.0.1:9092",
                "elasticsearch.url",
                "http://127.0.0.1:9200"));
        values.putAll(extra);
        return ScalerSettings.fromValues(values);
    }

    @Test
    void namesDeriveFromTheClusterIdUnlessGiven() {
        assertEquals("kcscale-default-state", with(Map.of()).stateTopic());
        assertEquals("kcscale-default-leader", with(Map.of()).leaderGroup());
        ScalerSettings prod = with(Map.of("scaler.cluster.id", "connect-prod"));
        assertEquals("kcscale-connect-prod-state", prod.stateTopic());
        assertEquals("kcscale-connect-prod-leader", prod.leaderGroup());
        ScalerSettings named =
                with(Map.of("scaler.cluster.id", "x", "state.topic", "ops.kcscale", "leader.group", "ops-kcscale"));
        assertEquals("ops.kcscale", named.stateTopic());
        assertEquals("ops-kcscale", named.leaderGroup());
    }

    @Test
    void aClusterIdThatCannotNameATopicIsRefused() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> with(Map.of("scaler.cluster.id", "a b")));
        assertEquals(
                "scaler.cluster.id (--scaler-cluster-id) must be 1 to 100 letters, digits, '.', '_' or '-', got a b",
                e.getMessage());
    }
}
