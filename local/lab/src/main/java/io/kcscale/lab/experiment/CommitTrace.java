package io.kcscale.lab.experiment;

import io.kcscale.local.Offsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Sink throughput per task from committed offsets sampled often. A sink task commits between calls
 * to {@code put}, and the per-record sink's {@code put} of a full poll (500 records) takes seconds at
 * ~100 records/s, so its committed offset climbs in steps: a rate over a fixed window is off by up to
 * a step. Measured from a task's first step in the window to its last, it is off by the sampling
 * interval only. Pure.
 */
final class CommitTrace {

    private final Map<Integer, Integer> assignment;
    private final int tasks;
    private final List<Double> seconds = new ArrayList<>();
    private final List<long[]> committed = new ArrayList<>();
    private final boolean[] waiting;

    /** @param assignment partition → task for the whole trace */
    CommitTrace(Map<Integer, Integer> assignment, int tasks) {
        this.assignment = assignment;
        this.tasks = tasks;
        this.waiting = new boolean[tasks];
    }

    void add(Offsets o) {
        long[] perTask = new long[tasks];
        for (Map.Entry<Integer, Integer> owned : assignment.entrySet()) {
            int task = owned.getValue();
            if (task < tasks) {
                perTask[task] += o.committed(owned.getKey());
                waiting[task] |= o.lag(owned.getKey()) > 0;
            }
        }
        seconds.add(o.atMillis() / 1000);
        committed.add(perTask);
    }

    /** Whether every task that had records waiting has stepped at least {@code steps} times. */
    boolean stepped(int steps) {
        for (int t = 0; t < tasks; t++) {
            if (waiting[t] && steps(t).size() < steps) {
                return false;
            }
        }
        return true;
    }

    /** Per task: from its first step to its last when it stepped twice or more, else over the whole trace. */
    Throughput throughput() {
        double[] rates = new double[tasks];
        for (int t = 0; t < tasks; t++) {
            List<Integer> steps = steps(t);
            int from = steps.size() >= 2 ? steps.get(0) : 0;
            int to = steps.size() >= 2 ? steps.get(steps.size() - 1) : committed.size() - 1;
            double span = seconds.get(to) - seconds.get(from);
            rates[t] = span > 0 ? (committed.get(to)[t] - committed.get(from)[t]) / span : 0;
        }
        return new Throughput(
                Arrays.stream(rates).sum(), Arrays.stream(rates).boxed().toList());
    }

    /** The samples at which task {@code t}'s committed offsets had moved since the sample before. */
    private List<Integer> steps(int t) {
        List<Integer> steps = new ArrayList<>();
        for (int i = 1; i < committed.size(); i++) {
            if (committed.get(i)[t] != committed.get(i - 1)[t]) {
                steps.add(i);
            }
        }
        return steps;
    }
}
