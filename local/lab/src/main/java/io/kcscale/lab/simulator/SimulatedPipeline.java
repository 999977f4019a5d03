package io.kcscale.lab.simulator;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sink pipeline's state, advanced in steps, as Connect runs a sink: each task polls a batch of up to
 * {@code max.poll.records} from its partitions, writes it at its service rate, and only when the whole
 * batch is written ({@code put} returns) do its offsets count as delivered; the worker commits delivered
 * offsets every commit interval. A change of tasks rebalances the group: the old tasks finish the batches
 * they hold (the group waits for them), then nothing is consumed for the pause; then the first new task,
 * alone in the emptied group, gets every partition and writes one batch before the others join (the
 * second wait measured on the real stack), and the new tasks poll from the committed offsets.
 * Counts only: no record is an object.
 */
final class SimulatedPipeline {

    static final String CONNECTOR = "simulated-sink";
    static final String TOPIC = "simulated";

    private final SimulationSettings settings;
    private final long[] end;
    private final long[] polled;
    private final long[] delivered;
    private final long[] committed;
    private int tasks;
    /** The assignment in force; null between the old tasks' last batch and the end of the pause. */
    private int[][] partitionsOfTask;

    private boolean draining;
    /** The first new task holds every partition until it has written one batch. */
    private boolean firstAlone;

    private boolean alonePolled;
    private long resumeAtMillis;
    /** Per task: records of its current batch not yet written. */
    private long[] batch;

    private double[] credit;
    private long written;
    private long lastCommitMillis;
    private int writeQueue;
    private int rotation;

    SimulatedPipeline(SimulationSettings settings) {
        this.settings = settings;
        this.end = new long[settings.partitions()];
        this.polled = new long[settings.partitions()];
        this.delivered = new long[settings.partitions()];
        this.committed = new long[settings.partitions()];
        this.tasks = settings.initialTasks();
        assign(tasks);
    }

    int tasks() {
        return tasks;
    }

    void arrive(long[] perPartition) {
        for (int p = 0; p < end.length; p++) {
            end[p] += perPartition[p];
        }
    }

    /** One step of the tasks' work, then the worker's commit when it is due. */
    void consume(long nowMillis, double seconds) {
        if (draining) {
            write(seconds, false);
            if (batchesDone()) {
                // the group completes its rebalance once the last old task has returned from put, by this step's end
                commit(nowMillis);
                draining = false;
                partitionsOfTask = null;
                resumeAtMillis = nowMillis + Math.round((seconds + settings.rebalancePauseSeconds()) * 1000);
            }
        } else if (partitionsOfTask == null && nowMillis >= resumeAtMillis) {
            assign(tasks > 1 ? 1 : tasks);
            firstAlone = tasks > 1;
            alonePolled = false;
        }
        if (partitionsOfTask != null && !draining) {
            write(seconds, true);
            if (firstAlone && batch[0] == 0 && (alonePolled || unpolled(0) == 0)) {
                // the others' join waited for that batch; the group has nothing in flight to wait for now
                firstAlone = false;
                assign(tasks);
            }
        }
        if (nowMillis - lastCommitMillis >= settings.commitIntervalSeconds() * 1000) {
            commit(nowMillis);
        }
    }

    /** Sets the tasks: the group starts to rebalance, first waiting for the batches in flight. */
    void scaleTo(int newTasks, long nowMillis) {
        tasks = newTasks;
        writeQueue = 0;
        if (partitionsOfTask != null) {
            draining = true;
        } else {
            resumeAtMillis = nowMillis + Math.round(settings.rebalancePauseSeconds() * 1000);
        }
    }

    /** Spreads the partitions over the first {@code members} tasks. */
    private void assign(int members) {
        int[] taskOf = settings.assignor().assign(end.length, members);
        List<List<Integer>> byTask = new ArrayList<>();
        for (int t = 0; t < members; t++) {
            byTask.add(new ArrayList<>());
        }
        for (int p = 0; p < taskOf.length; p++) {
            byTask.get(taskOf[p]).add(p);
            polled[p] = delivered[p];
        }
        partitionsOfTask = byTask.stream()
                .map(l -> l.stream().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new);
        batch = new long[members];
        credit = new double[members];
    }

    /**
     * Each task writes up to its service rate; when the tasks together want more than the sink's ceiling,
     * each gets its share of the ceiling. {@code poll} false: only the batches in flight are finished.
     */
    private void write(double seconds, boolean poll) {
        int n = partitionsOfTask.length;
        double[] wants = new double[n];
        double demand = 0;
        for (int t = 0; t < n; t++) {
            long work = batch[t] + (poll ? unpolled(t) : 0);
            wants[t] = Math.min(credit[t] + settings.perTaskRate() * seconds, work);
            demand += wants[t];
        }
        double room = settings.sinkCeiling() * seconds;
        double share = demand > room ? room / demand : 1;
        writeQueue = demand > room ? (int) Math.ceil((demand - room) / (settings.perTaskRate() * seconds)) : 0;
        for (int t = 0; t < n; t++) {
            double granted = wants[t] * share;
            long records = (long) granted;
            long left = writeBatches(t, records, poll);
            // a task short of work does not bank the idle time; a busy one carries its fraction of a record
            credit[t] = left == 0 && (batch[t] > 0 || (poll && unpolled(t) > 0)) ? granted - records : 0;
        }
        rotation++;
    }

    /** Writes up to {@code records} of task t's batches, polling the next when one is done; returns what was left unwritten. */
    private long writeBatches(int t, long records, boolean poll) {
        long left = records;
        while (left > 0) {
            if (batch[t] == 0 && (!poll || (firstAlone && alonePolled) || pollBatch(t) == 0)) {
                break;
            }
            long w = Math.min(left, batch[t]);
            batch[t] -= w;
            left -= w;
            written += w;
            if (batch[t] == 0) {
                for (int p : partitionsOfTask[t]) {
                    delivered[p] = polled[p];
                }
            }
        }
        return left;
    }

    /** Fetches up to max.poll.records from the task's partitions, in proportion to their backlog; the remainder one each, rotating. */
    private long pollBatch(int t) {
        int[] partitions = partitionsOfTask[t];
        long backlog = unpolled(t);
        if (backlog == 0) {
            return 0;
        }
        long records = Math.min(settings.maxPollRecords(), backlog);
        long left = records;
        for (int p : partitions) {
            long share = records * (end[p] - polled[p]) / backlog;
            polled[p] += share;
            left -= share;
        }
        for (int i = 0; left > 0; i++) {
            int p = partitions[(i + rotation) % partitions.length];
            if (polled[p] < end[p]) {
                polled[p]++;
                left--;
            }
        }
        batch[t] = records;
        alonePolled |= firstAlone;
        return records;
    }

    private long unpolled(int t) {
        long backlog = 0;
        for (int p : partitionsOfTask[t]) {
            backlog += end[p] - polled[p];
        }
        return backlog;
    }

    private boolean batchesDone() {
        for (long b : batch) {
            if (b > 0) {
                return false;
            }
        }
        return true;
    }

    private void commit(long nowMillis) {
        System.arraycopy(delivered, 0, committed, 0, delivered.length);
        lastCommitMillis = nowMillis;
    }

    long appended() {
        return sum(end);
    }

    /** Documents the sink wrote. */
    long written() {
        return written;
    }

    /** Records not yet written, from the offsets: not yet polled, plus the rest of the batches in flight. */
    long unwritten() {
        long inFlight = 0;
        for (long b : batch) {
            inFlight += b;
        }
        return sum(end) - sum(polled) + inFlight;
    }

    /** Records not yet committed: the lag the scaler sees. */
    long committedLag() {
        return sum(end) - sum(committed);
    }

    long[] endOffsets() {
        return end.clone();
    }

    long[] polledOffsets() {
        return polled.clone();
    }

    long[] committedOffsets() {
        return committed.clone();
    }

    /** What the scaler's observers would read now, as the live pipeline's sample. */
    PipelineSample sample(long nowMillis) {
        boolean rebalancing = partitionsOfTask == null || draining;
        List<PipelineSample.TaskState> states = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            states.add(new PipelineSample.TaskState(t, rebalancing ? "UNASSIGNED" : "RUNNING", "simulated-worker"));
        }
        Map<Integer, Integer> assignment = new TreeMap<>();
        if (!rebalancing) {
            for (int t = 0; t < partitionsOfTask.length; t++) {
                for (int p : partitionsOfTask[t]) {
                    assignment.put(p, t);
                }
            }
        }
        return new PipelineSample(
                nowMillis,
                CONNECTOR,
                "sink",
                tasks,
                List.of(TOPIC),
                states,
                asMap(end),
                asMap(committed),
                TopicPartition.onTopic(TOPIC, assignment),
                rebalancing ? "PREPARING_REBALANCE" : "STABLE",
                TOPIC,
                written,
                1,
                0,
                1,
                0L,
                writeQueue,
                List.of());
    }

    private static Map<TopicPartition, Long> asMap(long[] offsets) {
        Map<TopicPartition, Long> map = new TreeMap<>();
        for (int p = 0; p < offsets.length; p++) {
            map.put(new TopicPartition(TOPIC, p), offsets[p]);
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
