package io.kcscale.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.lab.bench.ScalerBenchmark.Point;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScalerBenchmarkSettingsTest {

    private static ScalerBenchmark.Settings settings(String... points) {
        return new ScalerBenchmark.Settings(
                Path.of("home"),
                Path.of("data"),
                Arrays.stream(points).map(Point::parse).toList(),
                Duration.ofSeconds(16),
                30,
                100,
                Duration.ofMinutes(2));
    }

    @Test
    void pointsMayChangeThePartitionsPerConnector() {
        assertEquals(
                List.of(new Point(1, 50), new Point(200, 5_500), new Point(500, 25_000)),
                settings("1x50", "200X5500", " 500x25000 ").points());
    }

    @Test
    void eachRefusalSaysWhatToChange() {
        String shrinking = assertThrows(IllegalArgumentException.class, () -> settings("10x500", "10x600"))
                .getMessage();
        assertTrue(shrinking.contains("10x600 after 10x500") && shrinking.contains("adds connectors"), shrinking);
        String thin = assertThrows(IllegalArgumentException.class, () -> settings("1x50", "11x70"))
                .getMessage();
        assertTrue(thin.contains("at least 3 partitions for each connector"), thin);
        String big = assertThrows(IllegalArgumentException.class, () -> settings("1001x60000"))
                .getMessage();
        assertTrue(big.contains("1 to 1,000 connectors and at most 50,000 partitions"), big);
        String garbled = assertThrows(IllegalArgumentException.class, () -> Point.parse("10by500"))
                .getMessage();
        assertTrue(garbled.contains("CONNECTORSxPARTITIONS"), garbled);
    }

    @Test
    void everyThirdSinkReadsSeveralTopicsOfItsOwn() {
        assertEquals(
                List.of("bench-scaler-000-t0", "bench-scaler-000-t1", "bench-scaler-000-t2"),
                ScalerBenchmark.topicsOf(0));
        assertEquals(List.of("bench-scaler-001"), ScalerBenchmark.topicsOf(1));
        assertEquals(List.of("bench-scaler-003-t0", "bench-scaler-003-t1"), ScalerBenchmark.topicsOf(3));
        assertEquals(3, ScalerBenchmark.topicsOf(6).size());
    }
}
