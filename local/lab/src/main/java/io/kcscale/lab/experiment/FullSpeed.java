package io.kcscale.lab.experiment;

import io.kcscale.local.Offsets;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.poll.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Measures what the sink's tasks consume at full speed: with a backlog in the topic and the source
 * stopped (so it takes no CPU from the sink on a small machine), the committed offsets' growth over
 * a window after a warm-up. The backlog is produced beforehand, with the sink paused, large enough
 * for the window at the speed expected.
 */
final class FullSpeed {

    /** Time a task-count change takes before the warm-up starts: the rebalance. */
    private static final Duration REBALANCE_ALLOWANCE = Duration.ofSeconds(5);

    private static final double BACKLOG_MARGIN = 1.3;
    private static final Duration FILL_TIMEOUT = Duration.ofMinutes(5);
    /** A window that ended with less backlog than this share of what it consumed may have run dry. */
    private static final double DRY_SHARE = 0.05;

    private static final int ATTEMPTS = 3;
    private static final int STEPS = 3;
    private static final int STRETCH = 3;

    private final ExperimentPipeline pipeline;
    private final Timing timing;
    private final Consumer<String> progress;
    private final WorkerCapacityProbe workers;

    FullSpeed(ExperimentPipeline pipeline, Timing timing, Consumer<String> progress) {
        this(pipeline, timing, progress, null);
    }

    /** @param workers reads the worker-capacity check over each window; null: not read */
    FullSpeed(ExperimentPipeline pipeline, Timing timing, Consumer<String> progress, WorkerCapacityProbe workers) {
        this.pipeline = pipeline;
        this.timing = timing;
        this.progress = progress;
        this.workers = workers;
    }

    /**
     * Records/s per task to size the first backlog by, near what a busy two-core machine gives: a backlog
     * too small costs another window, one too large the seconds to produce it (the source is faster).
     */
    static double firstGuessPerTask(SinkMode mode) {
        // one bulk task drained 44,000-54,000 records/s alone here (bench connectors): 2,000 left a backlog the
        // warm-up drained, and three doublings never caught up
        return mode == SinkMode.BULK ? 20_000 : 200;
    }

    /**
     * Full-speed windows until they settle or {@code rule} gives up: the worker's JVM compiles the sink's
     * path during its first drains (measured here: 2 tasks at 1,686 records/s cold, 4,371/s a minute
     * later), which would otherwise count against whichever task count comes first. Only the last window
     * may be counted.
     */
    Warm warmUp(int tasks, double expected, WarmUp rule) {
        progress.accept("warming the sink up with " + tasks + " task(s) until two windows in a row agree");
        List<Double> windows = new ArrayList<>();
        FullSpeedResult last = null;
        double rate = expected;
        while (!rule.over(windows)) {
            last = measure(tasks, rate);
            windows.add(last.throughput().total());
            rate = Math.max(expected, last.throughput().total());
        }
        return new Warm(List.copyOf(windows), last, rate / tasks);
    }

    /**
     * @param windows records/s of each warm-up window, in order
     * @param last    the last window
     * @param perTask records/s per task the last window saw, a better guess than the first one for sizing backlogs
     */
    record Warm(List<Double> windows, FullSpeedResult last, double perTask) {}

    /**
     * Measures {@code tasks} tasks; a window whose backlog ran out is measured again with twice the
     * backlog (or half again what it saw), up to {@link #ATTEMPTS} windows in all.
     *
     * @param expected records/s the tasks are expected to consume, to size the backlog
     * @return the throughput, and whether the backlog ran out even so (then it is a lower bound)
     */
    FullSpeedResult measure(int tasks, double expected) {
        double seconds =
                timing.warmup().plus(timing.window()).plus(REBALANCE_ALLOWANCE).toMillis() / 1000.0;
        double rate = expected;
        FullSpeedResult measured = null;
        for (int attempt = 0; attempt < ATTEMPTS && (measured == null || measured.ranDry()); attempt++) {
            if (measured != null) {
                rate = Math.max(2 * rate, BACKLOG_MARGIN * measured.throughput().total());
            }
            ensureBacklog(Math.round(rate * seconds * BACKLOG_MARGIN));
            measured = window(tasks);
        }
        progress.accept(String.format(
                Locale.ROOT,
                "%d task(s) at full speed: %.0f records/s%s%s",
                tasks,
                measured.throughput().total(),
                measured.ranDry() ? " (the backlog ran out: a lower bound)" : "",
                measured.workerCapacity() == null
                        ? ""
                        : "; worker-capacity for one task more: "
                                + measured.workerCapacity().summary()));
        return measured;
    }

    /**
     * After the warm-up, samples the committed offsets for the window and on, up to {@link #STRETCH} ×
     * the window, until every task with records waiting has committed {@link #STEPS} times: a rate
     * between commits needs at least two intervals.
     */
    private FullSpeedResult window(int tasks) {
        pipeline.sinkTasks(tasks);
        Pause.of(timing.warmup());
        if (workers != null) {
            workers.start();
        }
        Offsets first = pipeline.offsets();
        CommitTrace trace = new CommitTrace(pipeline.assignment(), tasks);
        trace.add(first);
        long start = System.nanoTime();
        long enough = start + timing.window().toNanos();
        long deadline = start + timing.window().toNanos() * STRETCH;
        Offsets last = first;
        for (long tick = start;
                System.nanoTime() < deadline && (System.nanoTime() < enough || !trace.stepped(STEPS)); ) {
            tick += (long) (Trial.SAMPLE_SECONDS * 1e9);
            Pause.until(tick);
            last = pipeline.offsets();
            trace.add(last);
        }
        return new FullSpeedResult(
                trace.throughput(),
                ranDry(last.lag(), last.consumed() - first.consumed()),
                workers == null ? null : workers.read());
    }

    /**
     * Whether the backlog ran out: little or nothing left at the window's end for what it consumed. Nothing left
     * and nothing consumed is a backlog drained during the warm-up (a fast sink), not a sink that cannot consume.
     */
    static boolean ranDry(long lagAtEnd, long consumedInWindow) {
        return lagAtEnd == 0 || lagAtEnd < DRY_SHARE * consumedInWindow;
    }

    /** Tops the backlog up to {@code records} with the sink paused, so that the fill does not race the sink. */
    private void ensureBacklog(long records) {
        if (pipeline.offsets().lag() >= records) {
            return;
        }
        progress.accept("producing a backlog of " + records + " records");
        pipeline.pauseSink();
        pipeline.source().flatOut();
        Poll.untilTrue(
                "a backlog of " + records + " records",
                FILL_TIMEOUT,
                Duration.ofMillis(500),
                () -> pipeline.offsets().lag() >= records,
                () -> "lag " + pipeline.offsets().lag());
        pipeline.source().stop();
    }
}
