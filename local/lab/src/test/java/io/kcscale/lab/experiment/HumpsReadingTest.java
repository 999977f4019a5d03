package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class HumpsReadingTest {

    private static ScenarioResult scenario(String name, ScenarioResult.Point... points) {
        return new ScenarioResult(name, List.of(points), List.of(), List.of());
    }

    private static ScenarioResult.Point point(int tasks, Double... perTask) {
        return new ScenarioResult.Point(
                tasks,
                List.of(perTask).stream().mapToDouble(Double::doubleValue).sum(),
                List.of(perTask));
    }

    @Test
    void readsEachHumpFromItsPoints() {
        List<String> lines = HumpsReading.lines(
                List.of(
                        scenario("key-hump-side", point(2, 2300.0, 2300.0), point(3, 2350.0, 2350.0, 0.0)),
                        scenario("key-hump-price", point(1, 4000.0), point(3, 2000.0, 2000.0, 2000.0)),
                        scenario("shard-hump-1", point(3, 2000.0, 2000.0, 2000.0)),
                        scenario("shard-hump-3", point(3, 1800.0, 1800.0, 1800.0))),
                2);

        assertEquals(
                List.of(
                        "Keyed by side: 3 tasks delivered 4700 records/s, 102% of what 2 did (4600); 1 of the 3 consumed nothing,"
                                + " because two keys fill at most two partitions.",
                        "Keyed by price: 3 tasks delivered 1.50× one task (6000 against 4000 records/s; 3× would be linear). The tasks,"
                                + " the worker, Elasticsearch and Kafka share this machine's 2 cores: they ran out at about 1.5 tasks' worth"
                                + " of one task's rate.",
                        "Shards: 3 tasks wrote 6000 records/s into a 1-shard index and 5400 into a 3-shard one, -10%. On one node the"
                                + " shards share the same cores and disk, so more shards add no capacity here; across nodes they spread the writes."),
                lines);
    }

    @Test
    void saysNothingOfAHumpWhosePointsAreMissing() {
        assertEquals(List.of(), HumpsReading.lines(List.of(scenario("key-hump-side", point(2, 1.0, 1.0))), 2));
    }
}
