package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Observation;

/**
 * The bounds every rule shares with the toolkit's: the policy's minTasks and maxTasks, and never more tasks than
 * can get a partition (when the observation knows it).
 */
record TaskBounds(int minTasks, int maxTasks) {

    static TaskBounds of(AutoscalePolicy validated) {
        return new TaskBounds(validated.minTasks(), validated.maxTasks());
    }

    /** The most tasks worth running now: maxTasks, and the tasks that can get a partition. */
    int cap(Observation o) {
        int withPartitions = o.tasksWithPartitionsAtMost() > 0 ? o.tasksWithPartitionsAtMost() : maxTasks;
        return Math.max(minTasks, Math.min(maxTasks, withPartitions));
    }

    int clamp(int tasks, Observation o) {
        return Math.max(minTasks, Math.min(cap(o), tasks));
    }
}
