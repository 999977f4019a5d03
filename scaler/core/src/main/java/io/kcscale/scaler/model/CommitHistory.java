package io.kcscale.scaler.model;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The sink group's committed offset of each partition over a bounded span, kept as the moments it moved. Connect
 * commits a sink task's offsets every {@code offset.flush.interval.ms} (60 s by default), and only between two
 * {@code put} calls, so committed offsets move in steps: a window shorter than a step sees nothing move, and a rate over
 * a fixed window saw-tooths. {@link CommitProgress} reads each task's progress, commit interval and rate between its
 * steps; every partition's steps start afresh when the group's assignment changes. Bounded in time, in points per partition and in points overall (about 40 bytes each), whatever the number of
 * partitions.
 */
public final class CommitHistory {

    /** As long as the end-offset history: 10 minutes. */
    public static final long SPAN_MILLIS = EndOffsetHistory.SPAN_MILLIS;

    /** Enough for the last ten intervals and a window at one commit per sample; a quiet partition keeps its span. */
    static final int MAX_POINTS_PER_PARTITION = 64;
    /** About 2 MB per connector. */
    static final int MAX_POINTS = 50_000;

    /** Marks a partition's first reading: what was committed before the scaler looked, not a commit it saw. */
    static final long NO_SAMPLE = Long.MIN_VALUE;

    /**
     * The offset of a partition the group has not committed: it starts at the log's start, which retention may have moved
     * past 0, so the first commit's step is not a count of records.
     */
    public static final long NONE = -1;

    /**
     * A partition's committed offset from one sample on.
     *
     * @param atMillis             the sample that first held it
     * @param previousSampleMillis the sample before, which did not hold it yet (the commit happened between the two);
     *                             {@link #NO_SAMPLE} for the partition's first reading
     */
    public record Point(long atMillis, long previousSampleMillis, long offset) {

        /** A step the scaler saw happen, not the value it found when it began. */
        public boolean commit() {
            return previousSampleMillis != NO_SAMPLE;
        }

        /** The group had committed an offset by then ({@link #NONE} otherwise). */
        public boolean committed() {
            return offset != NONE;
        }
    }

    private final long spanMillis;
    private final int maxPoints;
    private final Map<TopicPartition, Deque<Point>> partitions = new TreeMap<>();
    /** The task that owns each partition, as the last sample with an assignment said. */
    private final Map<TopicPartition, Integer> owners = new TreeMap<>();

    private long lastSampleMillis = NO_SAMPLE;

    public CommitHistory() {
        this(SPAN_MILLIS, MAX_POINTS);
    }

    CommitHistory(long spanMillis, int maxPoints) {
        this.spanMillis = spanMillis;
        this.maxPoints = maxPoints;
    }

    /**
     * One sample's committed offsets, for the partitions its end offsets list (one the group has not committed is at
     * {@link #NONE}); a partition the sample does not list is forgotten. When any partition's owner changed, every
     * partition starts afresh from this sample: the group rebalanced, so each member rejoined (Connect restarts all of a
     * connector's tasks when their number changes), and each task's next commit waits for its first put from the
     * partitions it holds now, on a schedule of its own; a partition whose task stayed would otherwise be judged on
     * the steps of the task before the restart. A sample without the end or the committed offsets adds nothing; one
     * without an assignment keeps the owners as they were.
     *
     * @param assignment partition to task id, or null when the group's members could not be read
     */
    public synchronized void add(
            long atMillis,
            Map<TopicPartition, Long> endOffsets,
            Map<TopicPartition, Long> committed,
            Map<TopicPartition, Integer> assignment) {
        if (endOffsets == null || committed == null || atMillis <= lastSampleMillis) {
            return;
        }
        partitions.keySet().retainAll(endOffsets.keySet());
        owners.keySet().retainAll(endOffsets.keySet());
        int perPartition = Math.max(3, Math.min(MAX_POINTS_PER_PARTITION, maxPoints / Math.max(1, endOffsets.size())));
        if (assignment != null) {
            boolean rebalanced = endOffsets.keySet().stream()
                    .anyMatch(tp -> owners.containsKey(tp) && !Objects.equals(owners.get(tp), assignment.get(tp)));
            if (rebalanced) {
                partitions.values().forEach(Deque::clear);
            }
            endOffsets.keySet().forEach(tp -> owners.put(tp, assignment.get(tp)));
        }
        for (TopicPartition tp : endOffsets.keySet()) {
            long offset = committed.getOrDefault(tp, NONE);
            Deque<Point> points = partitions.computeIfAbsent(tp, k -> new ArrayDeque<>());
            Point last = points.peekLast();
            if (last == null) {
                points.addLast(new Point(atMillis, NO_SAMPLE, offset));
            } else if (last.offset() != offset) {
                points.addLast(new Point(atMillis, lastSampleMillis, offset));
            }
            // the newest point at or before the span's start stays: it is the offset the span starts from
            while (points.size() > perPartition
                    || (points.size() > 1 && second(points).atMillis() <= atMillis - spanMillis)) {
                points.removeFirst();
            }
        }
        lastSampleMillis = atMillis;
    }

    private static Point second(Deque<Point> points) {
        Iterator<Point> i = points.iterator();
        i.next();
        return i.next();
    }

    /** The partition's points, oldest first; empty for one never read. */
    public synchronized List<Point> of(TopicPartition partition) {
        Deque<Point> points = partitions.get(partition);
        return points == null ? List.of() : List.copyOf(points);
    }

    /** Points held over all partitions. */
    synchronized int size() {
        return partitions.values().stream().mapToInt(Deque::size).sum();
    }

    /** The history of the given samples alone. */
    public static CommitHistory of(List<PipelineSample> samples) {
        CommitHistory history = new CommitHistory();
        samples.forEach(s -> history.add(s.atMillis(), s.endOffsets(), s.committedOffsets(), s.assignment()));
        return history;
    }
}
