package io.kcscale.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class StackOptionsTest {

    private static final Path HOME = Path.of("/toolkit");

    @Test
    void defaultsAreTheDocumentedOnes() {
        StackOptions o = StackOptions.builder(HOME).build();
        assertEquals(9092, o.kafkaPort());
        assertEquals(8083, o.connectPort());
        assertEquals(9200, o.elasticsearchPort());
        assertEquals(20, o.partitions());
        assertEquals("price", o.keyField());
        assertEquals(1, o.shards());
        assertEquals(1, o.sinkTasks());
        assertEquals(1, o.workers());
        assertEquals(HOME.resolve("data"), o.dataDir());
        assertEquals(SinkMode.INDEX, o.sinkMode());
        assertEquals(0, o.sinkLatencyMs());
        assertEquals(60_000, o.commitIntervalMs(), "Connect's own offset.flush.interval.ms");
    }

    @Test
    void sinkModesAreNamedAsOnTheCommandLine() {
        assertEquals(SinkMode.BULK, SinkMode.parse("bulk"));
        assertEquals("stocks-es-sink-bulk.json", SinkMode.BULK.template());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SinkMode.parse("batch"));
        assertEquals("--sink-mode must be one of index, bulk, got batch", e.getMessage());
    }

    @Test
    void badValuesNameTheirFlag() {
        assertRefused(b -> b.partitions(0), "--partitions must be at least 1, got 0");
        assertRefused(b -> b.ratePerSecond(-5), "--rate must be a positive number of records/s, got -5.0");
        assertRefused(b -> b.ratePerSecond(Double.NaN), "--rate must be a positive number of records/s, got NaN");
        assertRefused(b -> b.keyField(" "), "--keyfield must name a field of the record");
        assertRefused(b -> b.shards(0), "--shards must be between 1 and 1024, got 0");
        assertRefused(b -> b.sinkTasks(0), "--sink-tasks must be at least 1, got 0");
        assertRefused(b -> b.workers(9), "--workers must be between 1 and 8, got 9");
        assertRefused(b -> b.iterations(0), "--iterations must be -1 (no end) or at least 1, got 0");
        assertRefused(b -> b.kafkaPort(70000), "ports must be between 0 and 65535, got 70000");
        assertRefused(b -> b.sinkLatencyMs(-1), "--sink-latency-ms must be from 0 to 1000, got -1");
        assertRefused(b -> b.sinkLatencyMs(1001), "--sink-latency-ms must be from 0 to 1000, got 1001");
        assertRefused(b -> b.sinkLatencyMs(14).sinkSerialMs(1001), "--sink-serial-ms must be from 0 to 1000, got 1001");
        assertRefused(b -> b.commitIntervalMs(999), "--commit-interval-ms must be from 1000 to 300000, got 999");
        assertRefused(b -> b.commitIntervalMs(300_001), "--commit-interval-ms must be from 1000 to 300000, got 300001");
        assertRefused(
                b -> b.sinkSerialMs(12),
                "--sink-serial-ms needs --sink-latency-ms above 0: the latency proxy holds the lock");
    }

    private static void assertRefused(UnaryOperator<StackOptions.Builder> change, String message) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> change.apply(StackOptions.builder(HOME)).build());
        assertEquals(message, e.getMessage());
    }
}
