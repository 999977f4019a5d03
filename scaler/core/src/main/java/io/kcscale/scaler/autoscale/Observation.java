package io.kcscale.scaler.autoscale;

import io.kcscale.scaler.checks.TaskPlacement;
import io.kcscale.scaler.model.Median;
import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.Comparator;
import java.util.List;

/**
 * What a scaling policy sees at one evaluation, from the live pipeline or the simulator alike.
 *
 * @param tasks             the connector's tasks.max now
 * @param tasksRunning      tasks RUNNING now
 * @param tasksWithPartitionsAtMost the most tasks that can get a partition: the sink's topic's partitions; of several
 *                          topics, as the group's assignor deals them (range: the largest topic's count)
 * @param appendRate        records/s appended to the topic
 * @param sinkRate          records/s the sink consumed (between its tasks' commits)
 * @param lag               records not yet consumed ({@code lag.unconsumed}: the commit interval's saw-tooth left out)
 * @param stable            offsets advance, no rebalance in the window, all tasks RUNNING
 * @param unstableReasons   why not, when not stable
 * @param blockingFindings  findings that say more tasks cannot help (e.g. "key-cardinality: 2 distinct keys")
 * @param sinkRejecting     the sink rejects or queues writes (Elasticsearch write rejections)
 * @param lagSeconds        how long the oldest unconsumed record has waited ({@code lag.unconsumedSeconds}), or null when
 *                          unknown
 * @param busyFraction      the share of time the running tasks spent outside {@code poll()} (converting and writing),
 *                          their mean; null when the workers' metrics are not read
 * @param taskLoad          how the busy time spreads over the running tasks; null when any of theirs is unknown
 */
public record Observation(
        long atMillis,
        int tasks,
        int tasksRunning,
        int tasksWithPartitionsAtMost,
        double appendRate,
        double sinkRate,
        long lag,
        boolean stable,
        List<String> unstableReasons,
        List<String> blockingFindings,
        boolean sinkRejecting,
        Double lagSeconds,
        Double busyFraction,
        TaskLoad taskLoad) {

    /**
     * The busiest running task against the others: a skew (one task busy, the rest idle) is told apart from a
     * saturated sink (every task busy and slower) by it.
     *
     * @param busiest           the busiest task's busy fraction
     * @param median            the running tasks' median busy fraction
     * @param busiestPartitions the partitions the busiest task holds, of all its topics
     */
    public record TaskLoad(double busiest, double median, int busiestPartitions) {

        /** From each running task's busy fraction and partitions; null when there is none, or a busy fraction is unknown. */
        static TaskLoad of(List<PipelineSnapshot.Task> running) {
            if (running.isEmpty() || running.stream().anyMatch(t -> t.busyFraction() == null)) {
                return null;
            }
            PipelineSnapshot.Task busiest = running.stream()
                    .max(Comparator.comparingDouble(PipelineSnapshot.Task::busyFraction))
                    .orElseThrow();
            double[] sorted = running.stream()
                    .mapToDouble(PipelineSnapshot.Task::busyFraction)
                    .sorted()
                    .toArray();
            return new TaskLoad(
                    busiest.busyFraction(),
                    Median.ofSorted(sorted),
                    busiest.partitionsByTopic() == null
                            ? 0
                            : busiest.partitionsByTopic().values().stream()
                                    .mapToInt(List::size)
                                    .sum());
        }
    }

    /** What the scaler's snapshot shows at {@code atMillis}; unknown rates and lag count as 0. */
    public static Observation of(PipelineSnapshot s, List<String> blockingFindings, long atMillis) {
        List<PipelineSnapshot.Task> runningTasks =
                s.tasks().stream().filter(t -> "RUNNING".equals(t.state())).toList();
        int running = runningTasks.size();
        return new Observation(
                atMillis,
                s.tasksMax() == null ? running : s.tasksMax(),
                running,
                s.partitionsPerTopic() == null
                        ? 0
                        : TaskPlacement.tasksWithPartitionsAtMost(s.assignor(), s.partitionsPerTopic()),
                orZero(s.rates().appendPerSecond()),
                orZero(s.rates().sinkPerSecond()),
                s.lag().unconsumed() == null ? 0 : s.lag().unconsumed(),
                s.stable(),
                s.reasons(),
                blockingFindings,
                s.elasticsearch().rejectingWrites(),
                s.lag().unconsumedSeconds(),
                s.busyFraction(),
                TaskLoad.of(runningTasks));
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }

    /** Records/s one running task consumed. */
    public double perTaskRate() {
        return tasksRunning == 0 ? 0 : sinkRate / tasksRunning;
    }

    /** Little's law: lag / throughput; infinite when lag waits and nothing is consumed. */
    public double latencySeconds() {
        if (lag == 0) {
            return 0;
        }
        return sinkRate > 0 ? lag / sinkRate : Double.POSITIVE_INFINITY;
    }
}
