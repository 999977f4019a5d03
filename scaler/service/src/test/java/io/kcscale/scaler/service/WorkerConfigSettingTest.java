package io.kcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code connect.worker.config}: the worker properties the rebalance-config check reads, checked when the scaler starts. */
class WorkerConfigSettingTest {

    private static Map<String, String> pipeline() {
        Map<String, String> values = new HashMap<>();
        values.put("connect.url", "http://127.0.0.1:8083");
        values.put("kafka.bootstrap.servers", "127.0.0.1:9092");
        values.put("elasticsearch.url", "http://127.0.0.1:9200");
        return values;
    }

    @Test
    void unsetMeansKafkasDefaultsApply() {
        assertEquals(Optional.empty(), ScalerSettings.fromValues(pipeline()).connectWorkerConfig());
    }

    @Test
    void aReadableFileIsTaken(@TempDir Path dir) throws Exception {
        Path worker = Files.writeString(dir.resolve("worker.properties"), "consumer.session.timeout.ms=6000\n");
        Map<String, String> values = pipeline();
        values.put("connect.worker.config", worker.toString());
        assertEquals(Optional.of(worker), ScalerSettings.fromValues(values).connectWorkerConfig());
    }

    @Test
    void aMissingFileIsRefusedNamingTheKeyAndTheFlag(@TempDir Path dir) {
        Map<String, String> values = pipeline();
        values.put("connect.worker.config", dir.resolve("nope.properties").toString());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ScalerSettings.fromValues(values));
        assertTrue(
                e.getMessage().startsWith("connect.worker.config (--connect-worker-config) must be a readable file"),
                e.getMessage());
    }
}
