package io.kcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code rebalance.delay.seconds}: the workers' reassignment delay, which Connect's REST API does not say. */
class RebalanceDelaySettingTest {

    private static ScalerSettings with(String delay) {
        Map<String, String> values = new HashMap<>(Map.of(
                "connect.url",
                "http://127.0.0.1:8083",
                "kafka.bootstrap.servers",
                "127.0.0.1:9092",
                "elasticsearch.url",
                "http://127.0.0.1:9200"));
        if (delay != null) {
            values.put("rebalance.delay.seconds", delay);
        }
        return ScalerSettings.fromValues(values);
    }

    @Test
    void unsetIsConnectsDefaultAndZeroIsAllowed() {
        assertEquals(Duration.ofMinutes(5), with(null).rebalanceDelay());
        assertEquals(Duration.ofMillis(12_500), with("12.5").rebalanceDelay());
        assertEquals(Duration.ZERO, with("0").rebalanceDelay(), "Connect allows 0: it reassigns at once");
    }

    @Test
    void aBadValueIsOneLineSayingWhatToGive() {
        for (String bad : new String[] {"-1", "soon", "NaN", "300000"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> with(bad), bad);
            assertEquals(
                    "rebalance.delay.seconds (--rebalance-delay-seconds) must be a number of seconds from 0 to 86400"
                            + " (the workers' scheduled.rebalance.max.delay.ms / 1000), got " + bad,
                    e.getMessage());
        }
    }
}
