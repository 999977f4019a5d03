package io.kcscale.scaler.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the sink group's commits say of each task at one moment: when it committed, how often it commits, whether it is
 * making progress, and its partitions' rates between two of its commits. Connect commits all of a task's partitions at
 * once, so a moment at which any of them moved is a commit of the task, and a rate between two such moments is exact
 * whatever the commit interval (1 s or Connect's default 60 s). Progress is judged where it happens: a task that committed
 * within the window plus one commit interval is making progress, though a saturated task, which drains a few partitions
 * at a time, leaves most of them unmoved between two commits. Pure: no clock, no I/O.
 */
final class CommitProgress {

    /** Connect's {@code offset.flush.interval.ms} default: the least a task without an interval of its own is given. */
    static final double DEFAULT_INTERVAL_SECONDS = 60;
    /** The commit intervals a task's interval is the median of: recent enough to follow a change of the setting. */
    private static final int INTERVALS_KEPT = 10;

    /** The partitions no member owns, and those of a group whose members could not be read. */
    static final int UNOWNED = -1;

    static final int GROUP = -2;

    /** What commits say of whether a task consumes. */
    enum Progress {
        /** It committed within the window plus one commit interval. */
        PROGRESSING,
        /** It did not, though watched for longer than that: a paused or stuck task. */
        STOPPED,
        /** Watched for less than that, without a commit yet. */
        UNKNOWN
    }

    /**
     * One task's commits.
     *
     * @param commits          the moments any of its partitions moved, oldest first, each with the sample before it
     * @param intervalSeconds  the median time between its commits; null before it committed twice
     * @param assumedInterval  the interval its readings are sized to: its own, else the longer of the group's and
     *                         Connect's default
     * @param rates            records/s each partition consumed between two of its commits (including the silence since
     *                         the last when a commit is overdue); null when unknown
     */
    record Task(
            int id,
            List<TopicPartition> partitions,
            List<CommitHistory.Point> commits,
            Double intervalSeconds,
            double assumedInterval,
            Progress progress,
            Map<TopicPartition, Double> rates) {

        CommitHistory.Point lastCommit() {
            return commits.isEmpty() ? null : commits.get(commits.size() - 1);
        }

        CommitHistory.Point commitBeforeLast() {
            return commits.size() < 2 ? null : commits.get(commits.size() - 2);
        }

        /** Records/s over its partitions; null when unknown. */
        Double rate() {
            return rates == null
                    ? null
                    : rates.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /** Seconds since its last commit, at most one commit interval: what it consumed meanwhile is not committed yet. */
        double uncommittedSeconds(long nowMillis) {
            CommitHistory.Point last = lastCommit();
            return last == null ? 0 : Math.min((nowMillis - last.atMillis()) / 1000.0, assumedInterval);
        }
    }

    private CommitProgress() {}

    /**
     * Each task's commits, by task id ({@link #UNOWNED} for partitions no member owns; {@link #GROUP} for all of them
     * when the assignment is unknown).
     *
     * @param lag the lag of each partition now; its keys are the partitions read
     */
    static Map<Integer, Task> read(
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            Map<TopicPartition, Long> lag,
            Map<TopicPartition, Integer> assignment,
            long nowMillis,
            double windowSeconds) {
        Map<Integer, List<TopicPartition>> byTask = new TreeMap<>();
        lag.keySet()
                .forEach(p -> byTask.computeIfAbsent(
                                assignment == null ? GROUP : assignment.getOrDefault(p, UNOWNED),
                                k -> new ArrayList<>())
                        .add(p));
        Map<Integer, List<CommitHistory.Point>> commits = new TreeMap<>();
        Map<Integer, Double> intervals = new TreeMap<>();
        List<Double> allIntervals = new ArrayList<>();
        byTask.forEach((task, partitions) -> {
            List<CommitHistory.Point> c = commitsOf(moves, partitions, windowSeconds);
            commits.put(task, c);
            List<Double> gaps = new ArrayList<>();
            for (int i = Math.max(1, c.size() - INTERVALS_KEPT); i < c.size(); i++) {
                gaps.add((c.get(i).atMillis() - c.get(i - 1).atMillis()) / 1000.0);
            }
            allIntervals.addAll(gaps);
            if (!gaps.isEmpty() && task != UNOWNED) {
                intervals.put(task, median(gaps));
            }
        });
        Double groupInterval = allIntervals.isEmpty() ? null : median(allIntervals);
        Map<Integer, Task> tasks = new TreeMap<>();
        byTask.forEach((task, partitions) -> {
            Double interval = intervals.get(task);
            // until it has an interval of its own, a task is given the longer of the group's and Connect's default: a
            // task's first commit waits for its first put, which a cold task behind a backlog takes long to finish (a
            // poll of 500 records at 15/s, half a minute), whatever its neighbours commit at
            double assumed = interval != null
                    ? interval
                    : Math.max(DEFAULT_INTERVAL_SECONDS, groupInterval != null ? groupInterval : 0);
            List<CommitHistory.Point> c = commits.get(task);
            Progress progress = progress(moves, partitions, c, assumed, nowMillis, windowSeconds);
            tasks.put(
                    task,
                    new Task(
                            task,
                            partitions,
                            c,
                            interval,
                            assumed,
                            progress,
                            task == UNOWNED
                                    ? zero(partitions)
                                    : rates(moves, partitions, c, progress, lag, assumed, nowMillis, windowSeconds)));
        });
        return tasks;
    }

    /**
     * The moments any of the partitions moved, oldest first, one per sample: those within the window before the newest,
     * and {@value #INTERVALS_KEPT} more of each partition before them (what the interval and the rate need, not the
     * whole history).
     */
    private static List<CommitHistory.Point> commitsOf(
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            Collection<TopicPartition> partitions,
            double windowSeconds) {
        long newest = Long.MIN_VALUE;
        for (TopicPartition p : partitions) {
            List<CommitHistory.Point> points = moves.get(p);
            for (int i = points.size() - 1; i >= 0; i--) {
                if (points.get(i).commit()) {
                    newest = Math.max(newest, points.get(i).atMillis());
                    break;
                }
            }
        }
        if (newest == Long.MIN_VALUE) {
            return List.of();
        }
        long windowStart = newest - Math.round(windowSeconds * 1000);
        Map<Long, CommitHistory.Point> bySample = new TreeMap<>();
        for (TopicPartition p : partitions) {
            List<CommitHistory.Point> points = moves.get(p);
            int older = 0;
            for (int i = points.size() - 1; i >= 0 && older <= INTERVALS_KEPT; i--) {
                CommitHistory.Point point = points.get(i);
                if (!point.commit()) {
                    continue;
                }
                if (point.atMillis() < windowStart) {
                    older++;
                }
                bySample.putIfAbsent(
                        point.atMillis(), new CommitHistory.Point(point.atMillis(), point.previousSampleMillis(), 0));
            }
        }
        return List.copyOf(bySample.values());
    }

    private static Progress progress(
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            List<TopicPartition> partitions,
            List<CommitHistory.Point> commits,
            double interval,
            long nowMillis,
            double windowSeconds) {
        double horizonMillis = (windowSeconds + interval) * 1000;
        if (!commits.isEmpty() && nowMillis - commits.get(commits.size() - 1).atMillis() <= horizonMillis) {
            return Progress.PROGRESSING;
        }
        long watchedSince = partitions.stream()
                .map(moves::get)
                .filter(points -> !points.isEmpty())
                .mapToLong(points -> points.get(0).atMillis())
                .min()
                .orElse(nowMillis);
        return nowMillis - watchedSince > horizonMillis ? Progress.STOPPED : Progress.UNKNOWN;
    }

    /**
     * Each partition's records/s between the task's last commit and the newest commit at least a window before it (or its
     * oldest), or up to now once a commit is overdue (twice its interval): a silent task's rate falls as its silence
     * grows. A stopped task consumes nothing; a task that has not committed twice has a rate only when everything it owns
     * is consumed (then it kept up with each partition since its first reading); else unknown.
     */
    private static Map<TopicPartition, Double> rates(
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            List<TopicPartition> partitions,
            List<CommitHistory.Point> commits,
            Progress progress,
            Map<TopicPartition, Long> lag,
            double interval,
            long nowMillis,
            double windowSeconds) {
        if (progress == Progress.STOPPED) {
            return zero(partitions);
        }
        if (commits.size() >= 2) {
            CommitHistory.Point last = commits.get(commits.size() - 1);
            CommitHistory.Point first = commits.get(0);
            for (CommitHistory.Point c : commits) {
                if (c.atMillis() <= last.atMillis() - windowSeconds * 1000) {
                    first = c;
                }
            }
            boolean overdue = nowMillis - last.atMillis() > 2 * interval * 1000;
            return rates(moves, partitions, first.atMillis(), last.atMillis(), overdue ? nowMillis : last.atMillis());
        }
        if (partitions.stream().allMatch(p -> lag.get(p) == 0)) {
            Map<TopicPartition, Double> rates = new TreeMap<>();
            for (TopicPartition p : partitions) {
                List<CommitHistory.Point> points = moves.get(p);
                if (!points.isEmpty() && points.get(0).atMillis() < nowMillis) {
                    rates.putAll(rates(moves, List.of(p), points.get(0).atMillis(), nowMillis, nowMillis));
                }
            }
            return rates.isEmpty() ? null : rates;
        }
        return null;
    }

    /** Each partition's offset moved from {@code from} to {@code to}, over the seconds from {@code from} to {@code until}. */
    private static Map<TopicPartition, Double> rates(
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            List<TopicPartition> partitions,
            long from,
            long to,
            long until) {
        Map<TopicPartition, Double> rates = new TreeMap<>();
        for (TopicPartition p : partitions) {
            List<CommitHistory.Point> points = moves.get(p);
            Long start = offsetAt(points, from);
            Long end = offsetAt(points, to);
            if (start != null && end != null && start != CommitHistory.NONE && end != CommitHistory.NONE) {
                rates.put(p, Math.max(0, end - start) / ((until - from) / 1000.0));
            }
        }
        return rates;
    }

    private static Map<TopicPartition, Double> zero(List<TopicPartition> partitions) {
        Map<TopicPartition, Double> rates = new TreeMap<>();
        partitions.forEach(p -> rates.put(p, 0.0));
        return rates;
    }

    /** The committed offset as of {@code atMillis}: its newest point at or before; null before its history. */
    static Long offsetAt(List<CommitHistory.Point> points, long atMillis) {
        // newest first: the moments asked about are recent
        for (int i = points.size() - 1; i >= 0; i--) {
            if (points.get(i).atMillis() <= atMillis) {
                return points.get(i).offset();
            }
        }
        return null;
    }

    /** A partition's end offset as of {@code atMillis}, from its sampled end offsets; null before its history. */
    static Long endAt(List<LagAge.Point> points, long atMillis) {
        for (int i = points.size() - 1; i >= 0; i--) {
            if (points.get(i).atMillis() <= atMillis) {
                return points.get(i).endOffset();
            }
        }
        return null;
    }

    /** When the partition's committed offset last moved, or the first reading when it has not moved since. */
    static Long lastMovedAt(List<CommitHistory.Point> points) {
        return points.isEmpty() ? null : points.get(points.size() - 1).atMillis();
    }

    private static double median(List<Double> values) {
        return Median.ofSorted(
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray());
    }
}
