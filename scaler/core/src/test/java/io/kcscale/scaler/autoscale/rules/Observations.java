package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Observation;
import java.util.List;

/** Observations and policies for the rules' tests: a stable pipeline of one topic unless said otherwise. */
final class Observations {

    private Observations() {}

    static Observation of(
            long atSeconds, int tasks, int partitions, double append, double sink, long lag, Double busy) {
        return atMillis(atSeconds * 1000, tasks, partitions, append, sink, lag, busy);
    }

    static Observation atMillis(
            long atMillis, int tasks, int partitions, double append, double sink, long lag, Double busy) {
        return new Observation(
                atMillis,
                tasks,
                tasks,
                partitions,
                append,
                sink,
                lag,
                true,
                List.of(),
                List.of(),
                false,
                null,
                busy,
                null);
    }

    /** One task short of RUNNING (a rebalance under way). */
    static Observation rebalancing(long atSeconds, int tasks, int partitions, long lag) {
        return new Observation(
                atSeconds * 1000,
                tasks,
                tasks - 1,
                partitions,
                0,
                0,
                lag,
                false,
                List.of("a rebalance in the window"),
                List.of(),
                false,
                null,
                null,
                null);
    }

    static AutoscalePolicy latencyTarget(int minTasks, int maxTasks, double seconds) {
        return new AutoscalePolicy(minTasks, maxTasks, seconds, null, null, null, null, null, false, null);
    }

    static AutoscalePolicy lagTarget(int minTasks, int maxTasks, long lag) {
        return new AutoscalePolicy(minTasks, maxTasks, null, lag, null, null, null, null, false, null);
    }
}
