package io.kcscale.scaler.model;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the scaler sampled of one connector over the last 10 minutes, one point per sample, for the page's charts:
 * a page opened now shows them at once. Bounded in time, in points and in bytes (a point's size grows with its tasks).
 */
public final class SnapshotHistory {

    public static final long SPAN_MILLIS = EndOffsetHistory.SPAN_MILLIS;
    /** 10 minutes at a sample a second. */
    static final int MAX_POINTS = 600;

    static final long MAX_BYTES = 512 * 1024;
    /** A point's fields, boxed, and the deque's slot. */
    private static final long POINT_BYTES = 160;
    /** A task's id and rate in the map. */
    private static final long TASK_BYTES = 80;

    /**
     * One sample as the page charts it.
     *
     * @param recordsPerSecondByTask each RUNNING task's sink rate, by task id
     * @param tasks                  tasks RUNNING
     * @param lagSeconds             {@code lag.seconds}
     * @param verdict                {@code lag.verdict}
     */
    public record Point(
            long atMillis,
            Integer tasksMax,
            int tasks,
            Map<Integer, Double> recordsPerSecondByTask,
            Double sinkPerSecond,
            Double appendPerSecond,
            Long lag,
            Double lagSeconds,
            LagVerdict verdict) {

        public static Point of(PipelineSnapshot s) {
            Map<Integer, Double> rates = new TreeMap<>();
            s.tasks().stream()
                    .filter(t -> "RUNNING".equals(t.state()) && t.recordsPerSecond() != null)
                    .forEach(t -> rates.put(t.id(), t.recordsPerSecond()));
            int running = (int)
                    s.tasks().stream().filter(t -> "RUNNING".equals(t.state())).count();
            return new Point(
                    s.observedAtMillis(),
                    s.tasksMax(),
                    running,
                    rates,
                    s.rates().sinkPerSecond(),
                    s.rates().appendPerSecond(),
                    s.lag().total(),
                    s.lag().seconds(),
                    s.lag().verdict());
        }

        long bytes() {
            return POINT_BYTES + TASK_BYTES * recordsPerSecondByTask.size();
        }
    }

    private final long spanMillis;
    private final int maxPoints;
    private final long maxBytes;
    private final Deque<Point> points = new ArrayDeque<>();
    private long bytes;

    public SnapshotHistory() {
        this(SPAN_MILLIS, MAX_POINTS, MAX_BYTES);
    }

    SnapshotHistory(long spanMillis, int maxPoints, long maxBytes) {
        this.spanMillis = spanMillis;
        this.maxPoints = maxPoints;
        this.maxBytes = maxBytes;
    }

    /** Adds a point, then drops the oldest until the span, the count and the bytes are within bounds. */
    public synchronized void add(Point point) {
        Point last = points.peekLast();
        if (last != null && point.atMillis() <= last.atMillis()) {
            return;
        }
        points.addLast(point);
        bytes += point.bytes();
        while (points.size() > 1
                && (points.size() > maxPoints
                        || bytes > maxBytes
                        || points.peekFirst().atMillis() < point.atMillis() - spanMillis)) {
            bytes -= points.removeFirst().bytes();
        }
    }

    /** The points, oldest first. */
    public synchronized List<Point> points() {
        return List.copyOf(points);
    }

    /** The bytes the points are estimated to hold. */
    synchronized long bytes() {
        return bytes;
    }
}
