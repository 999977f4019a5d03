package io.kcscale.lab.peers;

import io.kcscale.scaler.autoscale.Observation;

/**
 * The task bounds every peer rule shares with ours: at least {@code minTasks}, at most {@code maxTasks}
 * and never more tasks than can hold a partition.
 */
record PeerBounds(int minTasks, int maxTasks) {

    PeerBounds {
        if (minTasks < 1 || maxTasks < minTasks) {
            throw new IllegalArgumentException(
                    "task bounds must satisfy 1 <= minTasks <= maxTasks, got " + minTasks + ".." + maxTasks);
        }
    }

    /** The most tasks worth running now. */
    int cap(Observation o) {
        return Math.max(
                minTasks,
                Math.min(maxTasks, o.tasksWithPartitionsAtMost() > 0 ? o.tasksWithPartitionsAtMost() : maxTasks));
    }

    int clamp(double tasks, Observation o) {
        return (int) Math.max(minTasks, Math.min(cap(o), Math.ceil(tasks)));
    }

    static void requirePositive(String name, double value) {
        if (!(value > 0 && Double.isFinite(value))) {
            throw new IllegalArgumentException(name + " must be a positive number, got " + value);
        }
    }
}
