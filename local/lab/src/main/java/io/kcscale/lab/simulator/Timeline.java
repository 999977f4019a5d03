package io.kcscale.lab.simulator;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.List;

/**
 * One policy's run over a load trace, as the scaler saw it: a point per sample and every action.
 * The simulator and the live benchmark record the same thing, so one {@link PolicyOutcome} judges both.
 *
 * @param durationSeconds how long the run lasted (the trace's duration)
 */
public record Timeline(
        String policy, int initialTasks, double durationSeconds, List<Point> points, List<ScalingAction> actions) {

    public Timeline {
        points = List.copyOf(points);
        actions = List.copyOf(actions);
    }

    /**
     * @param offeredRate    records/s the trace offered then (its nominal rate)
     * @param appendRate     records/s appended, over the scaler's window; null until it has two samples
     * @param sinkRate       records/s the sink committed, over the window
     * @param indexRate      documents/s Elasticsearch indexed, over the window: unlike the committed rate, not
     *                       quantized by the sink's batches
     * @param lag            records not yet committed by the sink
     * @param latencySeconds Little's law, lag / sink rate; null when it cannot be known
     * @param lagSeconds     how long the oldest unconsumed record had waited ({@code lag.seconds}); null when unknown
     */
    public record Point(
            double atSeconds,
            double offeredRate,
            Double appendRate,
            Double sinkRate,
            Double indexRate,
            long lag,
            int tasks,
            Double latencySeconds,
            Double lagSeconds) {

        /** A point from the scaler's snapshot, as the live pipeline and the simulator both produce it. */
        public static Point of(double atSeconds, double offeredRate, PipelineSnapshot s, int tasks) {
            return new Point(
                    atSeconds,
                    offeredRate,
                    s.rates().appendPerSecond(),
                    s.rates().sinkPerSecond(),
                    s.rates().indexPerSecond(),
                    s.lag().total() == null ? 0 : s.lag().total(),
                    tasks,
                    s.latencySeconds(),
                    s.lag().seconds());
        }
    }

    /** Tasks × seconds they existed, from the start's tasks and each action's time. */
    public double taskSeconds() {
        double total = 0;
        double since = 0;
        int tasks = initialTasks;
        for (ScalingAction a : actions) {
            total += tasks * (a.atSeconds() - since);
            since = a.atSeconds();
            tasks = a.toTasks();
        }
        return total + tasks * (durationSeconds - since);
    }
}
