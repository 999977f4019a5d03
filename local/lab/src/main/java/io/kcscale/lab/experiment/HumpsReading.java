package io.kcscale.lab.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the humps' figures say, in words: how close three tasks came to two when keyed by {@code side},
 * how far from linear they scaled when keyed by {@code price} (where this machine's cores ran out), and
 * the measured difference between the 1-shard and 3-shard index. Pure: from the results alone.
 */
final class HumpsReading {

    private HumpsReading() {}

    static List<String> lines(List<ScenarioResult> scenarios, int cores) {
        List<String> lines = new ArrayList<>();
        point(scenarios, "key-hump-side", 2)
                .ifPresent(two -> point(scenarios, "key-hump-side", 3).ifPresent(three -> {
                    long idle = three.perTaskThroughput().stream()
                            .filter(r -> r == 0)
                            .count();
                    lines.add(String.format(
                            Locale.ROOT,
                            "Keyed by side: 3 tasks delivered %.0f records/s, %.0f%% of what 2 did (%.0f); %d of the 3"
                                    + " consumed nothing, because two keys fill at most two partitions.",
                            three.throughput(),
                            100 * three.throughput() / two.throughput(),
                            two.throughput(),
                            idle));
                }));
        point(scenarios, "key-hump-price", 1)
                .ifPresent(one -> point(scenarios, "key-hump-price", 3).ifPresent(three -> {
                    double speedup = three.throughput() / one.throughput();
                    lines.add(String.format(
                            Locale.ROOT,
                            "Keyed by price: 3 tasks delivered %.2f× one task (%.0f against %.0f records/s; 3× would be"
                                    + " linear). The tasks, the worker, Elasticsearch and Kafka share this machine's %d cores: they ran out at"
                                    + " about %.1f tasks' worth of one task's rate.",
                            speedup,
                            three.throughput(),
                            one.throughput(),
                            cores,
                            speedup));
                }));
        point(scenarios, "shard-hump-1", 3)
                .ifPresent(oneShard -> point(scenarios, "shard-hump-3", 3).ifPresent(threeShards -> {
                    double change = threeShards.throughput() / oneShard.throughput() - 1;
                    lines.add(String.format(
                            Locale.ROOT,
                            "Shards: 3 tasks wrote %.0f records/s into a 1-shard index and %.0f into a 3-shard one,"
                                    + " %+.0f%%. On one node the shards share the same cores and disk, so more shards add no capacity here;"
                                    + " across nodes they spread the writes.",
                            oneShard.throughput(),
                            threeShards.throughput(),
                            100 * change));
                }));
        return lines;
    }

    private static Optional<ScenarioResult.Point> point(List<ScenarioResult> scenarios, String name, int tasks) {
        return scenarios.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .flatMap(
                        s -> s.points().stream().filter(p -> p.tasks() == tasks).findFirst());
    }
}
