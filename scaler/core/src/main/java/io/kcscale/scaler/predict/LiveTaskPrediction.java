package io.kcscale.scaler.predict;

import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import io.kcscale.scaler.checks.TaskPlacement;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.TaskCapacities;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * {@code predict tasks --connector}: the tasks a target rate needs, sized from the per-task capacity the scaler
 * measures live on the sink (its tasks' read rate over their busy fraction, {@link PipelineSnapshot#capacity()}), with
 * the range of that capacity over the window carried into the task count and the rate the tasks sustain, and what
 * limits the answer: the tasks themselves, the sink, the keys, the partitions or a worker's CPU. A capacity that is
 * not known is no answer: {@link UnknownCapacityException} says what is missing. Pure: the snapshot and the checks'
 * findings are given.
 */
public final class LiveTaskPrediction {

    static final String TASKS = "tasks";
    static final String SINK = "sink";
    static final String KEYS = "keys";
    static final String PARTITIONS = "partitions";
    static final String WORKER_CPU = "worker-cpu";

    private LiveTaskPrediction() {}

    /** The connector's per-task capacity is unknown: nothing to size from. */
    public static final class UnknownCapacityException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownCapacityException(String message) {
            super(message);
        }
    }

    /**
     * @param request     with {@code connector} set, neither {@code perTaskRate} nor {@code measurements}
     * @param findingsFor the scaling checks' findings for a task count
     * @throws UnknownCapacityException when the snapshot's per-task capacity is unknown, saying why
     */
    public static TasksResult predict(
            TasksRequest request, PipelineSnapshot snapshot, IntFunction<List<Finding>> findingsFor) {
        if (request.perTaskRate() != null || request.measurements() != null) {
            throw new InvalidInputException(
                    "connector",
                    "cannot be combined with {0} or {1}: the capacity is measured on the connector",
                    "perTaskRate",
                    "measurements");
        }
        PipelineSnapshot.Capacity c = snapshot.capacity();
        if (!c.known()) {
            throw new UnknownCapacityException(snapshot.name() + "'s per-task capacity is unknown: " + c.unknown()
                    + "; give --per-task-rate (perTaskRate) to predict from a rate of your own");
        }
        TasksResult base = TaskPrediction.predict(request.withPerTaskRate(c.recordsPerSecond()));
        double required = base.targetRate() / base.utilization();
        int recommended = base.recommendedTasks();
        TasksResult.TaskInterval tasks =
                new TasksResult.TaskInterval(recommended, count(required, c.high()), count(required, c.low()));
        TasksResult.Interval sustained = new TasksResult.Interval(
                recommended * c.recordsPerSecond(), recommended * c.low(), recommended * c.high());
        int running = (int) snapshot.tasks().stream()
                .filter(t -> "RUNNING".equals(t.state()))
                .count();
        List<TasksResult.Limit> limits =
                limits(snapshot, findingsFor.apply(Math.max(1, tasks.high())), tasks.high(), running, c);
        String limitedBy = limits.stream()
                .filter(TasksResult.Limit::binding)
                .map(TasksResult.Limit::factor)
                .findFirst()
                .orElse(TASKS);
        TasksResult.Live live = new TasksResult.Live(
                snapshot.name(),
                running,
                snapshot.busyFraction(),
                new TasksResult.Interval(c.recordsPerSecond(), c.low(), c.high()),
                c.samples(),
                snapshot.windowSeconds(),
                TaskCapacities.LEVEL,
                sustained,
                tasks,
                limitedBy,
                limits);
        List<String> assumptions = new ArrayList<>();
        assumptions.add(String.format(
                Locale.ROOT,
                "one task can do %s records/s, measured live on %s: its %d running task(s)' read rate over their busy"
                        + " fraction, %d readings over the last %s s (the central %d%% of them from %s to %s)",
                Numbers.format(c.recordsPerSecond()),
                snapshot.name(),
                running,
                c.samples(),
                Numbers.format(snapshot.windowSeconds(), 0),
                TaskCapacities.LEVEL_PERCENT,
                Numbers.format(c.low()),
                Numbers.format(c.high())));
        assumptions.add("throughput scales linearly at that capacity; the busy time includes waiting on the sink, so"
                + " a sink that slows under more load gives each task less, which the limits below watch for");
        if (c.rising()) {
            assumptions.add("the capacity is still rising (the newer half of a task's readings more than "
                    + TaskCapacities.RISING_PERCENT + "% above the older half: a recent start warming up), so the"
                    + " answer errs towards more tasks; ask again in a few minutes");
        }
        // the first assumption of the base answer is the given rate's, which the live one replaces
        assumptions.addAll(base.assumptions().subList(1, base.assumptions().size()));
        List<String> advice = new ArrayList<>();
        limits.stream()
                .filter(l -> l.factor().equals(limitedBy))
                .findFirst()
                .ifPresent(l -> advice.add("limited by " + l.factor() + ": " + l.detail()));
        advice.addAll(base.advice());
        return base.live(live, assumptions, advice);
    }

    /** The fewest tasks of {@code perTask} records/s each that carry {@code rate}. */
    private static Integer count(double rate, double perTask) {
        return TaskPrediction.tasks(new LinearScaling(perTask), rate);
    }

    /**
     * What bounds the answer, the tasks' own capacity first; the checks are judged for the most tasks the answer's range
     * may need.
     */
    private static List<TasksResult.Limit> limits(
            PipelineSnapshot s, List<Finding> findings, int mostTasks, int running, PipelineSnapshot.Capacity c) {
        List<TasksResult.Limit> others = new ArrayList<>();
        PipelineSnapshot.Elasticsearch es = s.elasticsearch();
        if (es != null && es.rejectingWrites()) {
            others.add(new TasksResult.Limit(
                    SINK,
                    true,
                    String.format(
                            Locale.ROOT,
                            "Elasticsearch pushes back (%s write rejections/s, %s writes queued): the sink, not the"
                                    + " tasks, sets the rate, and more tasks add load it cannot take; grow the sink"
                                    + " (shards, data nodes) or use bulk requests",
                            es.writeRejectionsPerSecond() == null ? "?" : Numbers.format(es.writeRejectionsPerSecond()),
                            es.writeQueue() == null ? "?" : es.writeQueue())));
        }
        finding(findings, "index-shards").ifPresent(f -> others.add(new TasksResult.Limit(SINK, false, f.title())));
        for (String id : List.of("key-cardinality", "idle-tasks")) {
            finding(findings, id)
                    .ifPresent(
                            f -> others.add(new TasksResult.Limit(KEYS, f.severity() == Severity.CRITICAL, f.title())));
        }
        Optional<Finding> partitionCount = finding(findings, "partition-count");
        if (s.partitionsPerTopic() != null) {
            int atMost = TaskPlacement.tasksWithPartitionsAtMost(s.assignor(), s.partitionsPerTopic());
            if (mostTasks > atMost) {
                others.add(new TasksResult.Limit(
                        PARTITIONS,
                        true,
                        "at most " + atMost + " tasks get a partition ("
                                + (s.partitionsPerTopic().size() == 1
                                        ? "the topic has " + atMost + " partitions"
                                        : TaskPlacement.boundReason(s.assignor(), s.partitionsPerTopic()))
                                + ") and up to " + mostTasks + " may be needed: add partitions before scaling past "
                                + atMost + " (adding partitions re-maps keys)"));
                partitionCount = Optional.empty();
            }
        }
        partitionCount.ifPresent(
                f -> others.add(new TasksResult.Limit(PARTITIONS, f.severity() == Severity.CRITICAL, f.title())));
        finding(findings, "worker-capacity")
                .or(() -> findings.stream()
                        .filter(f -> f.id().equals("worker-capacity") && f.severity() == Severity.INFO)
                        .findFirst())
                .ifPresent(f -> others.add(new TasksResult.Limit(
                        WORKER_CPU,
                        f.severity() == Severity.CRITICAL,
                        (f.severity() == Severity.INFO ? "unknown: " : "") + f.title())));
        boolean othersBind = others.stream().anyMatch(TasksResult.Limit::binding);
        List<TasksResult.Limit> limits = new ArrayList<>();
        double perTaskNow = s.tasks().stream()
                .filter(t -> "RUNNING".equals(t.state()) && t.recordsPerSecond() != null)
                .mapToDouble(PipelineSnapshot.Task::recordsPerSecond)
                .average()
                .orElse(Double.NaN);
        limits.add(new TasksResult.Limit(
                TASKS,
                !othersBind,
                String.format(
                        Locale.ROOT,
                        "each task can do %s records/s (%s to %s); its %d running task(s) now do %s records/s each,"
                                + " %s busy",
                        Numbers.format(c.recordsPerSecond()),
                        Numbers.format(c.low()),
                        Numbers.format(c.high()),
                        running,
                        Double.isNaN(perTaskNow) ? "?" : Numbers.format(perTaskNow),
                        s.busyFraction() == null ? "?" : Numbers.format(s.busyFraction() * 100, 0) + "%")));
        limits.addAll(others);
        return limits;
    }

    /** The check's finding when it warns or worse. */
    private static Optional<Finding> finding(List<Finding> findings, String id) {
        return findings.stream()
                .filter(f -> f.id().equals(id) && f.severity().atLeast(Severity.WARNING))
                .findFirst();
    }
}
