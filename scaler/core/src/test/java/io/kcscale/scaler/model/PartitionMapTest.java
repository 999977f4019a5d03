package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A reading per partition held compactly reads as the tree map it replaces, and shares its partitions. */
class PartitionMapTest {

    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition A1 = new TopicPartition("a", 1);
    private static final TopicPartition B0 = new TopicPartition("b", 0);

    @Test
    void readsAsTheTreeMapItReplacesInPartitionOrder() {
        Map<TopicPartition, Long> unordered = new LinkedHashMap<>();
        unordered.put(B0, 30L);
        unordered.put(A1, 20L);
        unordered.put(A0, 10L);
        PartitionMap<Long> map = PartitionMap.of(unordered, null);
        TreeMap<TopicPartition, Long> tree = new TreeMap<>(unordered);

        assertEquals(tree, map);
        assertEquals(map, tree);
        assertEquals(tree.hashCode(), map.hashCode());
        assertEquals(List.copyOf(tree.keySet()), List.copyOf(map.keySet()));
        assertEquals(List.copyOf(tree.values()), List.copyOf(map.values()));
        List<TopicPartition> visited = new ArrayList<>();
        map.forEach((p, v) -> visited.add(p));
        assertEquals(List.of(A0, A1, B0), visited);
        assertEquals(20L, map.get(A1));
        assertNull(map.get(new TopicPartition("a", 2)));
        assertEquals(0L, map.getOrDefault(new TopicPartition("c", 0), 0L));
        assertTrue(map.containsKey(new TopicPartition("b", 0)));
        assertFalse(map.containsKey("b-0"));
        assertThrows(UnsupportedOperationException.class, () -> map.put(A0, 1L));
        assertNull(PartitionMap.of(null, map));
    }

    @Test
    void aReadingOfTheSamePartitionsSharesThemAndComparesByValue() {
        PartitionMap<Integer> first = PartitionMap.of(Map.of(A0, 0, A1, 1), null);
        PartitionMap<Integer> same = PartitionMap.of(new HashMap<>(Map.of(A1, 1, A0, 0)), first);
        PartitionMap<Integer> moved = PartitionMap.of(Map.of(A0, 1, A1, 1), first);
        PartitionMap<Integer> more = PartitionMap.of(Map.of(A0, 0, A1, 1, B0, 2), first);

        assertTrue(same.sharesPartitionsWith(first));
        assertTrue(moved.sharesPartitionsWith(first));
        assertFalse(more.sharesPartitionsWith(first));
        assertEquals(first, same);
        assertNotEquals(first, moved);
        assertNotEquals(first, more);
        assertNotEquals(more, first);
        assertEquals(PartitionMap.of(Map.of(A0, 0, A1, 1), null), first, "equal without sharing");
    }

    @Test
    void aWindowsSamplesShareTheirPartitionsUntilTheyChange() {
        SampleWindow window = new SampleWindow(60_000);
        window.add(sample(0, Map.of(A0, 10L, A1, 10L), Map.of(A0, 0, A1, 1)));
        window.add(sample(2_000, Map.of(A0, 20L, A1, 25L), Map.of(A0, 0, A1, 1)));
        window.add(sample(4_000, Map.of(A0, 30L, A1, 40L, B0, 5L), Map.of(A0, 0, A1, 0, B0, 1)));

        List<PipelineSample> samples = window.samples();
        PartitionMap<?> first = (PartitionMap<?>) samples.get(0).endOffsets();
        PartitionMap<?> second = (PartitionMap<?>) samples.get(1).endOffsets();
        PartitionMap<?> third = (PartitionMap<?>) samples.get(2).endOffsets();
        assertTrue(second.sharesPartitionsWith(first));
        assertTrue(((PartitionMap<?>) samples.get(1).committedOffsets())
                .sharesPartitionsWith((PartitionMap<?>) samples.get(0).committedOffsets()));
        assertFalse(third.sharesPartitionsWith(second), "a topic's new partition is new partitions");
        assertEquals(Map.of(A0, 20L, A1, 25L), samples.get(1).endOffsets());
        assertEquals(Map.of(A0, 0, A1, 0, B0, 1), samples.get(2).assignment());
        assertTrue(SnapshotDerivation.rebalancedWithin(samples), "the assignment changed at the third sample");
        assertFalse(SnapshotDerivation.rebalancedWithin(samples.subList(0, 2)));
    }

    private static PipelineSample sample(
            long at, Map<TopicPartition, Long> ends, Map<TopicPartition, Integer> assignment) {
        Map<TopicPartition, Long> committed = new TreeMap<>();
        ends.forEach((p, end) -> committed.put(p, end / 2));
        return SampleBuilder.at(at)
                .tasksMax(2)
                .topics(List.of("a"))
                .offsets(ends, committed)
                .assignment(assignment)
                .group("Stable", null)
                .index("index", 0L, 1, 0)
                .build();
    }
}
