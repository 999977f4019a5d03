package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The histories a connector keeps stay within their span, their point count and their bytes. */
class HistoryBoundsTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);

    @Test
    void endOffsetsKeepTheirSpanAndAFlatRunCostsTwoPoints() {
        EndOffsetHistory history = new EndOffsetHistory(10_000, 1_000);
        for (long at = 0; at <= 30_000; at += 1_000) {
            history.add(at, Map.of(P0, at / 1_000 * 10));
        }
        List<LagAge.Point> points = history.of(P0);
        assertEquals(19_000, points.get(0).atMillis(), "older than the span is dropped, but for the newest such point");
        assertEquals(12, points.size());
        for (long at = 31_000; at <= 38_000; at += 1_000) {
            history.add(at, Map.of(P0, 300L));
        }
        assertEquals(
                List.of(new LagAge.Point(30_000, 300), new LagAge.Point(38_000, 300)),
                history.of(P0).subList(history.of(P0).size() - 2, history.of(P0).size()));
    }

    @Test
    void endOffsetsStayWithinTheirPointsWhateverThePartitions() {
        EndOffsetHistory history = new EndOffsetHistory(3_600_000, 1_000);
        Map<TopicPartition, Long> many = new HashMap<>();
        for (long at = 0; at < 200; at++) {
            for (int p = 0; p < 100; p++) {
                many.put(new TopicPartition("t", p), at);
            }
            history.add(at * 1_000, many);
        }
        assertTrue(history.size() <= 1_000, history.size() + " points");
        history.add(201_000, Map.of(P0, 300L));
        assertTrue(history.of(new TopicPartition("t", 1)).isEmpty(), "a partition no longer listed is forgotten");
    }

    @Test
    void theSnapshotHistoryKeepsItsSpanPointsAndBytes() {
        SnapshotHistory bySpan = new SnapshotHistory(10_000, 1_000, 1_000_000);
        for (long at = 0; at <= 30_000; at += 1_000) {
            bySpan.add(point(at, 1));
        }
        assertEquals(20_000, bySpan.points().get(0).atMillis());
        SnapshotHistory byCount = new SnapshotHistory(3_600_000, 5, 1_000_000);
        for (long at = 0; at < 20; at++) {
            byCount.add(point(at, 1));
        }
        assertEquals(5, byCount.points().size());
        SnapshotHistory byBytes = new SnapshotHistory(3_600_000, 1_000, 10_000);
        for (long at = 0; at < 100; at++) {
            byBytes.add(point(at, 50));
        }
        assertTrue(byBytes.bytes() <= 10_000, byBytes.bytes() + " bytes");
        assertEquals(99, byBytes.points().get(byBytes.points().size() - 1).atMillis());
    }

    private static SnapshotHistory.Point point(long at, int tasks) {
        Map<Integer, Double> rates = new HashMap<>();
        for (int t = 0; t < tasks; t++) {
            rates.put(t, 10.0);
        }
        return new SnapshotHistory.Point(
                at, tasks, tasks, rates, 10.0 * tasks, 10.0 * tasks, 0L, 0.0, LagVerdict.CAUGHT_UP);
    }
}
