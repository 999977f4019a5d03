package io.kcscale.scaler.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Each sink task's busy fraction and capacity over a window, from what its worker publishes at each sample: the busy
 * fraction is the share of its time in {@code put()} (waiting on the sink included), {@code put-batch-avg-time-ms} ÷
 * its consumer's {@code time-between-poll-avg}, or where those are not published 1 − its consumer's
 * {@code poll-idle-ratio-avg} (see {@link #busy}); its capacity is {@code sink-record-read-rate} ÷ busy fraction, one
 * reading per sample. A task below
 * {@link #MIN_BUSY} busy at every sample says nothing of its limit: its capacity is unknown, never extrapolated; so is
 * that of a sink whose {@code put()} does not wait for its writes ({@link SinkWrites#BEHIND_PUT}). Pure.
 */
public final class TaskCapacities {

    /** The share of the samples each capacity's low–high range holds: from the 5th to the 95th percentile. */
    public static final double LEVEL = 0.90;

    public static final int LEVEL_PERCENT = 90;
    /**
     * Below this busy fraction a reading is not used: a task busy 2% of its time at 1 record/s would be sized at 50
     * records/s from a figure whose noise (a single slow request, a GC pause) is as large as itself.
     */
    public static final double MIN_BUSY = 0.05;

    /** Why a capacity is unknown when nothing reads the workers' metrics. */
    public static final String NOT_READ =
            "the workers' metrics are not read: give the scaler each worker's JMX exporter"
                    + " (--worker-metrics-url) or a Prometheus that scrapes them (--prometheus-url)";

    /** How far the newer half of a task's readings must lie above the older half for its capacity to read rising. */
    public static final int RISING_PERCENT = 5;

    /** Fewer readings than this per half say nothing of a trend. */
    static final int RISING_MIN_HALF = 3;

    static final String POLL_IDLE = "poll-idle";
    static final String PUT_TIME = "put-time";

    private TaskCapacities() {}

    /** One task's busy fraction at one sample, and how it was read. */
    record Busy(double fraction, String from) {}

    /**
     * @param busy      each task's busy fraction at the newest sample (absent when unknown)
     * @param perTask   each task's capacity over the window
     * @param pooled    one task's capacity from every running task's readings together
     * @param busyMean  the running tasks' mean busy fraction now; null when any of theirs is unknown, or none runs
     */
    record Result(
            Map<Integer, Double> busy,
            Map<Integer, PipelineSnapshot.Capacity> perTask,
            PipelineSnapshot.Capacity pooled,
            Double busyMean) {}

    /**
     * A task's busy fraction as its metrics say; null when they say neither way of reading it. Connect calls
     * {@code put()} once per poll, so the mean put time over the mean time between polls is the share of the task's
     * time in {@code put()}, each cycle weighed by its length. Kafka's {@code poll-idle-ratio-avg} is a mean over
     * polls instead, each weighed alike: at a record or none per poll, the polls that return at once pull it down, and
     * a per-record task at 11 records/s read 59% busy by it, 31% by its put time, where 37.5 records/s saturated it.
     * So the put time comes first, where published; it leaves out converting and transforming, which the poll-idle
     * ratio, the fallback, counts.
     */
    static Busy busy(PipelineSample.TaskMetrics m) {
        if (finite(m.putBatchAvgMillis()) && finite(m.timeBetweenPollAvgMillis()) && m.timeBetweenPollAvgMillis() > 0) {
            return new Busy(clamp(m.putBatchAvgMillis() / m.timeBetweenPollAvgMillis()), PUT_TIME);
        }
        if (finite(m.putBatchAvgMillis())
                && finite(m.readPerSecond())
                && finite(m.batchSizeAvg())
                && m.batchSizeAvg() > 0) {
            return new Busy(clamp(m.putBatchAvgMillis() / 1000 * m.readPerSecond() / m.batchSizeAvg()), PUT_TIME);
        }
        if (finite(m.pollIdleRatio())) {
            return new Busy(clamp(1 - m.pollIdleRatio()), POLL_IDLE);
        }
        return null;
    }

    /**
     * @param samples oldest first, the newest last; the tasks are the newest sample's
     */
    static Result of(List<PipelineSample> samples) {
        PipelineSample latest = samples.get(samples.size() - 1);
        if (latest.writes() == SinkWrites.BEHIND_PUT) {
            return writesBehindPut(latest);
        }
        Map<Integer, Double> busyNow = new TreeMap<>();
        Map<Integer, PipelineSnapshot.Capacity> perTask = new TreeMap<>();
        List<Double> pooled = new ArrayList<>();
        Set<String> pooledFrom = new LinkedHashSet<>();
        Set<String> pooledSources = new LinkedHashSet<>();
        List<String> unknownRunning = new ArrayList<>();
        boolean everyRunningBusyKnown = true;
        boolean anyRising = false;
        double busySum = 0;
        int running = 0;
        for (PipelineSample.TaskState task :
                latest.tasks() == null ? List.<PipelineSample.TaskState>of() : latest.tasks()) {
            boolean isRunning = "RUNNING".equals(task.state());
            PipelineSample.TaskMetrics now = metricsOf(latest, task.id());
            Busy busy = now == null ? null : busy(now);
            if (busy != null) {
                busyNow.put(task.id(), busy.fraction());
            }
            if (isRunning) {
                running++;
                everyRunningBusyKnown &= busy != null;
                busySum += busy == null ? 0 : busy.fraction();
            }
            Readings readings = readings(samples, task.id());
            PipelineSnapshot.Capacity capacity = isRunning
                    ? capacity(readings, unknownBecause(latest, task.id(), now, busy, readings))
                    : PipelineSnapshot.Capacity.unknown("task " + task.id() + " is " + task.state());
            perTask.put(task.id(), capacity);
            if (isRunning && capacity.known()) {
                pooled.addAll(readings.capacities());
                pooledFrom.addAll(readings.from());
                pooledSources.addAll(readings.sources());
                anyRising |= capacity.rising();
            } else if (isRunning) {
                unknownRunning.add("task " + task.id() + ": " + capacity.unknown());
            }
        }
        PipelineSnapshot.Capacity together = pooled.isEmpty()
                ? PipelineSnapshot.Capacity.unknown(
                        running == 0
                                ? "no task is RUNNING"
                                : unknownRunning.isEmpty() ? NOT_READ : String.join("; ", unknownRunning))
                : summary(pooled, pooledFrom, pooledSources, anyRising);
        return new Result(busyNow, perTask, together, running > 0 && everyRunningBusyKnown ? busySum / running : null);
    }

    /**
     * Why a sink whose {@code put()} hands its records to a writer of its own has no busy fraction or capacity read:
     * its put time stays near nothing at any load (one bulk task behind a 14 ms proxy read 5% busy at 5,200 records/s,
     * a capacity of 104,000/s, where it sustained 17,200/s saturated), so a capacity read from it would be a guess
     * five times too high.
     */
    static final String BEHIND_PUT =
            "its put() hands records to a writer of its own that sends batches beside it, so its time in put() is not"
                    + " its busy time: measure its capacity saturated (predict tasks --measure, or experiment sweep)";

    private static Result writesBehindPut(PipelineSample latest) {
        Map<Integer, PipelineSnapshot.Capacity> perTask = new TreeMap<>();
        for (PipelineSample.TaskState task :
                latest.tasks() == null ? List.<PipelineSample.TaskState>of() : latest.tasks()) {
            perTask.put(task.id(), PipelineSnapshot.Capacity.unknown(BEHIND_PUT));
        }
        return new Result(Map.of(), perTask, PipelineSnapshot.Capacity.unknown(BEHIND_PUT), null);
    }

    /** A task's capacity readings over the window: one per sample in which it ran busy enough. */
    private record Readings(
            List<Double> capacities,
            Set<String> from,
            Set<String> sources,
            double mostBusy,
            double rateAtMostBusy,
            int read) {}

    private static Readings readings(List<PipelineSample> samples, int task) {
        List<Double> capacities = new ArrayList<>();
        Set<String> from = new LinkedHashSet<>();
        Set<String> sources = new LinkedHashSet<>();
        double mostBusy = -1;
        double rateAtMostBusy = 0;
        int read = 0;
        for (PipelineSample s : samples) {
            if (!runs(s, task)) {
                continue;
            }
            PipelineSample.TaskMetrics m = metricsOf(s, task);
            Busy busy = m == null ? null : busy(m);
            if (busy == null || !finite(m.readPerSecond())) {
                continue;
            }
            read++;
            if (busy.fraction() > mostBusy) {
                mostBusy = busy.fraction();
                rateAtMostBusy = m.readPerSecond();
            }
            if (busy.fraction() >= MIN_BUSY && m.readPerSecond() > 0) {
                capacities.add(m.readPerSecond() / busy.fraction());
                from.add(busy.from());
                sources.add(m.source());
            }
        }
        return new Readings(capacities, from, sources, mostBusy, rateAtMostBusy, read);
    }

    private static PipelineSnapshot.Capacity capacity(Readings r, String unknown) {
        if (!r.capacities().isEmpty()) {
            return summary(r.capacities(), r.from(), r.sources(), rising(r.capacities()));
        }
        return PipelineSnapshot.Capacity.unknown(unknown);
    }

    /** Why a running task has no capacity reading in the window. */
    private static String unknownBecause(
            PipelineSample latest, int task, PipelineSample.TaskMetrics now, Busy busy, Readings readings) {
        if (readings.read() > 0) {
            return String.format(
                    Locale.ROOT,
                    "near idle: at most %.1f%% busy over the window (%.2f records/s), below the %.0f%% from which its"
                            + " busy time tells its limit; load it more to measure it",
                    readings.mostBusy() * 100,
                    readings.rateAtMostBusy(),
                    MIN_BUSY * 100);
        }
        PipelineSample.WorkerMetrics metrics = latest.workerMetrics();
        if (metrics == null) {
            return NOT_READ;
        }
        String unread = metrics.unread().get(task);
        if (unread != null) {
            return unread;
        }
        if (now == null) {
            return "its worker's metrics hold no task " + task + " of this connector";
        }
        if (busy == null) {
            return "its worker publishes neither its put-batch-avg-time-ms with its consumer's time-between-poll-avg nor"
                    + " its consumer's poll-idle-ratio-avg: the exporter's rules must admit them"
                    + " (configs/jmx-exporter/connect-worker.yml)";
        }
        return "its worker publishes no sink-record-read-rate for it";
    }

    /**
     * Whether a task's readings, oldest first, climb: the median of the newer half more than {@link #RISING_PERCENT}%
     * above the older half's. Medians, so one slow request or GC pause in either half does not decide it.
     */
    static boolean rising(List<Double> readings) {
        int half = readings.size() / 2;
        if (half < RISING_MIN_HALF) {
            return false;
        }
        double older = median(readings.subList(0, half));
        double newer = median(readings.subList(readings.size() - half, readings.size()));
        return newer > older * (1 + RISING_PERCENT / 100.0);
    }

    private static double median(List<Double> values) {
        return Median.ofSorted(
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray());
    }

    private static PipelineSnapshot.Capacity summary(
            List<Double> values, Set<String> from, Set<String> sources, boolean rising) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return new PipelineSnapshot.Capacity(
                Median.ofSorted(sorted),
                sorted[(int) Math.floor((1 - LEVEL) / 2 * (n - 1))],
                sorted[(int) Math.ceil((1 + LEVEL) / 2 * (n - 1))],
                n,
                String.join(",", from),
                sources.stream().collect(Collectors.joining(",")),
                rising,
                null);
    }

    /** The task's metrics at a sample; null when not read. */
    static PipelineSample.TaskMetrics metricsOf(PipelineSample s, int task) {
        return s.workerMetrics() == null ? null : s.workerMetrics().tasks().get(task);
    }

    private static boolean runs(PipelineSample s, int task) {
        return s.tasks() != null && s.tasks().stream().anyMatch(t -> t.id() == task && "RUNNING".equals(t.state()));
    }

    private static boolean finite(Double d) {
        return d != null && Double.isFinite(d);
    }

    private static double clamp(double fraction) {
        return Math.max(0, Math.min(1, fraction));
    }
}
