package io.kcscale.scaler.model;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each partition's end offset at each sample over a bounded span, from which {@link LagAge} reads how long the
 * oldest unconsumed record has waited. Bounded in time, in points per partition and in points overall (about
 * 40 bytes each) whatever the number of partitions. A run of equal end offsets keeps only its first and last point,
 * which is all interpolation needs, so an idle partition's history costs two points.
 *
 * <p>Besides the span, a partition keeps the newest point older than it: a record appended before that point has
 * waited at least since then. Without it a flat run older than the span would lose its first point, and the age of
 * a stuck, idle partition's oldest record would fall from the span to one sample's interval, again and again.
 */
public final class EndOffsetHistory {

    /** As long as the page's charts: 10 minutes. */
    public static final long SPAN_MILLIS = 10 * 60_000L;

    static final int MAX_POINTS_PER_PARTITION = 1024;
    /** About 2 MB per connector. */
    static final int MAX_POINTS = 50_000;

    private final long spanMillis;
    private final int maxPoints;
    private final Map<TopicPartition, Deque<LagAge.Point>> partitions = new TreeMap<>();

    public EndOffsetHistory() {
        this(SPAN_MILLIS, MAX_POINTS);
    }

    EndOffsetHistory(long spanMillis, int maxPoints) {
        this.spanMillis = spanMillis;
        this.maxPoints = maxPoints;
    }

    /** The end offsets of one sample; a partition the sample does not list is forgotten. Null (unread) adds nothing. */
    public synchronized void add(long atMillis, Map<TopicPartition, Long> endOffsets) {
        if (endOffsets == null) {
            return;
        }
        partitions.keySet().retainAll(endOffsets.keySet());
        int perPartition = Math.max(2, Math.min(MAX_POINTS_PER_PARTITION, maxPoints / Math.max(1, endOffsets.size())));
        endOffsets.forEach((tp, end) -> {
            Deque<LagAge.Point> points = partitions.computeIfAbsent(tp, k -> new ArrayDeque<>());
            LagAge.Point last = points.peekLast();
            if (last != null && atMillis <= last.atMillis()) {
                return;
            }
            if (last != null && last.endOffset() == end) {
                points.pollLast();
                LagAge.Point beforeLast = points.peekLast();
                if (beforeLast == null || beforeLast.endOffset() != end) {
                    points.addLast(last);
                }
            }
            points.addLast(new LagAge.Point(atMillis, end));
            while (points.size() > perPartition || second(points).atMillis() < atMillis - spanMillis) {
                points.removeFirst();
            }
        });
    }

    /** The point after the oldest; the newest point when there is no other, which is never older than the span. */
    private static LagAge.Point second(Deque<LagAge.Point> points) {
        Iterator<LagAge.Point> oldestFirst = points.iterator();
        LagAge.Point oldest = oldestFirst.next();
        return oldestFirst.hasNext() ? oldestFirst.next() : oldest;
    }

    /** The partition's points, oldest first; empty for one never sampled. */
    public synchronized List<LagAge.Point> of(TopicPartition partition) {
        Deque<LagAge.Point> points = partitions.get(partition);
        return points == null ? List.of() : List.copyOf(points);
    }

    /** Points held over all partitions. */
    synchronized int size() {
        return partitions.values().stream().mapToInt(Deque::size).sum();
    }

    /** The history of the given samples alone: what a window of samples says without a longer history. */
    public static EndOffsetHistory of(List<PipelineSample> samples) {
        EndOffsetHistory history = new EndOffsetHistory();
        samples.forEach(s -> history.add(s.atMillis(), s.endOffsets()));
        return history;
    }
}
