package io.kcscale.lab.experiment;

import io.kcscale.scaler.checks.Finding;
import java.util.List;

/**
 * One scenario's measurements and what the scaler's checks raised (warning or worse) before it ran.
 *
 * @param notes what qualifies a figure (say, a backlog that ran out), for the report
 */
public record ScenarioResult(String name, List<Point> points, List<Finding> findings, List<String> notes) {

    /**
     * One task count: the sink's throughput in records/s, in all and per task (by task id); {@code workerCapacity}: the
     * worker-capacity check at full speed, for one task more, where the experiment read it (the sweep), else null.
     */
    public record Point(
            int tasks, double throughput, List<Double> perTaskThroughput, WorkerCapacityProbe.Reading workerCapacity) {

        public Point(int tasks, double throughput, List<Double> perTaskThroughput) {
            this(tasks, throughput, perTaskThroughput, null);
        }
    }

    public List<String> findingIds() {
        return findings.stream().map(Finding::id).toList();
    }

    /** The point measured with {@code tasks} tasks. */
    public Point at(int tasks) {
        return points.stream()
                .filter(p -> p.tasks() == tasks)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name + " has no point at " + tasks + " tasks"));
    }
}
