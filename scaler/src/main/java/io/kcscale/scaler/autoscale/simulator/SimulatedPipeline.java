package io.kcscale.scaler.autoscale.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kcscale.scaler.model.PipelineSample;

/**
 * A sink pipeline's state, advanced in steps: per-partition log-end, consumed and committed offsets,
 * the tasks and their partitions, and the rebalance that follows every change of tasks. Counts only:
 * no record is an object, so 10,000 records/s over 150 tasks cost what 10 records/s do.
 */
final class SimulatedPipeline {

    static final String CONNECTOR = "simulated-sink";
    static final String TOPIC = "simulated";

    private final SimulationSettings settings;
    private final long[] end;
    private final long[] consumed;
    private final long[] committed;
    private int tasks;
    /** Null while the group rebalances: nothing is consumed until {@code resumeAtMillis}. */
    private int[][] partitionsOfTask;
    private long resumeAtMillis;
    private double[] credit;
    private long lastCommitMillis;
    private int writeQueue;
    private int rotation;

    SimulatedPipeline(SimulationSettings settings) {
        this.settings = settings;
        this.end = new long[settings.partitions()];
        this.consumed = new long[settings.partitions()];
        this.committed = new long[settings.partitions()];
        this.tasks = settings.initialTasks();
        assign();
    }

    int tasks() {
        return tasks;
    }

    void arrive(long[] perPartition) {
        for (int p = 0; p < end.length; p++) {
            end[p] += perPartition[p];
        }
    }

    /**
     * Each task writes up to its service rate from its partitions' backlog (shared in proportion to
     * each partition's backlog); when the tasks together want more than the sink's ceiling, each gets
     * its share of the ceiling. Offsets are committed every commit interval.
     */
    void consume(long nowMillis, double seconds) {
        if (partitionsOfTask == null && nowMillis >= resumeAtMillis) {
            assign();
        }
        if (partitionsOfTask != null) {
            writeFromBacklog(seconds);
        }
        if (nowMillis - lastCommitMillis >= settings.commitIntervalSeconds() * 1000) {
            commit(nowMillis);
        }
    }

    /** Sets the tasks: offsets are committed as the group revokes its partitions, and consumption pauses. */
    void scaleTo(int newTasks, long nowMillis) {
        commit(nowMillis);
        tasks = newTasks;
        partitionsOfTask = null;
        writeQueue = 0;
        resumeAtMillis = nowMillis + Math.round(settings.rebalancePauseSeconds() * 1000);
    }

    private void assign() {
        int[] taskOf = settings.assignor().assign(end.length, tasks);
        List<List<Integer>> byTask = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            byTask.add(new ArrayList<>());
        }
        for (int p = 0; p < taskOf.length; p++) {
            byTask.get(taskOf[p]).add(p);
        }
        partitionsOfTask = byTask.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        credit = new double[tasks];
    }

    private void writeFromBacklog(double seconds) {
        double[] wants = new double[tasks];
        long[] backlogs = new long[tasks];
        double demand = 0;
        for (int t = 0; t < tasks; t++) {
            for (int p : partitionsOfTask[t]) {
                backlogs[t] += end[p] - consumed[p];
            }
            wants[t] = Math.min(credit[t] + settings.perTaskRate() * seconds, backlogs[t]);
            demand += wants[t];
        }
        double room = settings.sinkCeiling() * seconds;
        double share = demand > room ? room / demand : 1;
        writeQueue = demand > room ? (int) Math.ceil((demand - room) / (settings.perTaskRate() * seconds)) : 0;
        for (int t = 0; t < tasks; t++) {
            double granted = wants[t] * share;
            long records = (long) granted;
            // a task short of work does not bank the idle time; a busy one carries its fraction of a record
            credit[t] = records < backlogs[t] ? granted - records : 0;
            take(partitionsOfTask[t], records, backlogs[t]);
        }
        rotation++;
    }

    /** Takes {@code records} from the partitions in proportion to their backlog; the remainder one each, rotating. */
    private void take(int[] partitions, long records, long backlog) {
        if (records == 0) {
            return;
        }
        long left = records;
        for (int p : partitions) {
            long share = records * (end[p] - consumed[p]) / backlog;
            consumed[p] += share;
            left -= share;
        }
        for (int i = 0; left > 0; i++) {
            int p = partitions[(i + rotation) % partitions.length];
            if (consumed[p] < end[p]) {
                consumed[p]++;
                left--;
            }
        }
    }

    private void commit(long nowMillis) {
        System.arraycopy(consumed, 0, committed, 0, consumed.length);
        lastCommitMillis = nowMillis;
    }

    long appended() {
        return sum(end);
    }

    long written() {
        return sum(consumed);
    }

    long committedLag() {
        return sum(end) - sum(committed);
    }

    long[] endOffsets() {
        return end.clone();
    }

    long[] consumedOffsets() {
        return consumed.clone();
    }

    long[] committedOffsets() {
        return committed.clone();
    }

    /** What the scaler's observers would read now, as the live pipeline's sample. */
    PipelineSample sample(long nowMillis) {
        boolean rebalancing = partitionsOfTask == null;
        List<PipelineSample.TaskState> states = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            states.add(new PipelineSample.TaskState(t, rebalancing ? "UNASSIGNED" : "RUNNING", "simulated-worker"));
        }
        Map<Integer, Integer> assignment = new TreeMap<>();
        if (!rebalancing) {
            for (int t = 0; t < tasks; t++) {
                for (int p : partitionsOfTask[t]) {
                    assignment.put(p, t);
                }
            }
        }
        return new PipelineSample(nowMillis, CONNECTOR, "sink", tasks, List.of(TOPIC), states, asMap(end), asMap(committed),
                assignment, rebalancing ? "PREPARING_REBALANCE" : "STABLE", TOPIC, written(), 1, 0, 1, 0L, writeQueue, List.of());
    }

    private static Map<Integer, Long> asMap(long[] offsets) {
        Map<Integer, Long> map = new TreeMap<>();
        for (int p = 0; p < offsets.length; p++) {
            map.put(p, offsets[p]);
        }
        return map;
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long v : values) {
            total += v;
        }
        return total;
    }
}
