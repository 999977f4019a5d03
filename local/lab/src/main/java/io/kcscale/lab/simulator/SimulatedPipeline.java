package io.kcscale.lab.simulator;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.SinkWrites;
import io.kcscale.scaler.model.TopicPartition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sink pipeline's state, advanced in steps, as Connect runs a sink: each task's consumer fetches up to a fetch's worth
 * of each of its partitions that has none buffered, and its polls drain the buffered fetches in order, one partition's
 * records before the next's (so a busy task works through its partitions a few at a time, and a partition waits while
 * the others' fetches ahead of it drain); each poll hands a batch of up to {@code max.poll.records} to put, written at
 * the task's service rate, and only when the whole batch is written ({@code put} returns) do its offsets count as
 * delivered. A task commits its delivered offsets between two puts once its commit interval has passed, so a task busy
 * with a long put commits late. A change of tasks rebalances the group: the old tasks finish the batches
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
    /** The consumer's fetch position: records fetched into a task's buffer, not yet polled. */
    private final long[] fetched;
    /** Whether a partition's fetch waits in its task's buffer. */
    private final boolean[] buffered;

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
    /** Per task: its consumer's fetched records, oldest fetch first, each {partition, records left}. */
    private List<Deque<long[]>> buffers;
    /** Per task: when it last committed. */
    private long[] committedAtMillis;

    private double[] credit;
    /** Per task, since the last sample: the seconds it worked or waited on the sink, and the records it wrote. */
    private double[] busySeconds;

    private long[] writtenBy;
    private long sampledAtMillis;
    private long written;
    private int writeQueue;
    private int rotation;

    SimulatedPipeline(SimulationSettings settings) {
        this.settings = settings;
        this.end = new long[settings.partitions()];
        this.fetched = new long[settings.partitions()];
        this.buffered = new boolean[settings.partitions()];
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

    /** One step of the tasks' work, each task committing between its puts when its commit is due. */
    void consume(long nowMillis, double seconds) {
        if (draining) {
            write(nowMillis, seconds, false);
            if (batchesDone()) {
                // the group completes its rebalance once the last old task has returned from put, by this step's end
                commitDelivered();
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
            write(nowMillis, seconds, true);
            if (firstAlone && batch[0] == 0 && (alonePolled || unpolled(0) == 0)) {
                // the others' join waited for that batch; the group has nothing in flight to wait for now
                firstAlone = false;
                assign(tasks);
            }
        }
        if (partitionsOfTask != null && !draining) {
            // a task with nothing to put still iterates, and commits when due
            for (int t = 0; t < partitionsOfTask.length; t++) {
                if (batch[t] == 0) {
                    commitWhenDue(t, nowMillis);
                }
            }
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
            fetched[p] = delivered[p];
            buffered[p] = false;
        }
        partitionsOfTask = byTask.stream()
                .map(l -> l.stream().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new);
        batch = new long[members];
        credit = new double[members];
        busySeconds = new double[members];
        writtenBy = new long[members];
        buffers = new ArrayList<>();
        for (int t = 0; t < members; t++) {
            buffers.add(new ArrayDeque<>());
        }
        committedAtMillis = new long[members];
    }

    /**
     * Each task writes up to its service rate; when the tasks together want more than the sink's ceiling,
     * each gets its share of the ceiling. {@code poll} false: only the batches in flight are finished.
     */
    private void write(long nowMillis, double seconds, boolean poll) {
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
            // waiting on a sink at its ceiling counts as busy, as a real task's time in put() does
            busySeconds[t] += wants[t] / settings.perTaskRate();
            long left = writeBatches(t, records, poll, nowMillis);
            writtenBy[t] += records - left;
            // a task short of work does not bank the idle time; a busy one carries its fraction of a record
            credit[t] = left == 0 && (batch[t] > 0 || (poll && unpolled(t) > 0)) ? granted - records : 0;
        }
        rotation++;
    }

    /**
     * Writes up to {@code records} of task t's batches, committing when due and polling the next when one is done;
     * returns what was left unwritten.
     */
    private long writeBatches(int t, long records, boolean poll, long nowMillis) {
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
                if (poll) {
                    commitWhenDue(t, nowMillis);
                }
            }
        }
        return left;
    }

    /**
     * Polls up to max.poll.records from the task's buffered fetches, oldest first, after fetching each of its partitions
     * that has nothing buffered (Kafka's consumer fetches only those): a busy task drains one partition's fetch before
     * the next's.
     */
    private long pollBatch(int t) {
        Deque<long[]> buffer = buffers.get(t);
        fetch(t, buffer);
        long records = 0;
        while (records < settings.maxPollRecords() && !buffer.isEmpty()) {
            long[] chunk = buffer.peekFirst();
            long take = Math.min(chunk[1], settings.maxPollRecords() - records);
            polled[(int) chunk[0]] += take;
            chunk[1] -= take;
            records += take;
            if (chunk[1] == 0) {
                buffer.removeFirst();
                buffered[(int) chunk[0]] = false;
            }
        }
        batch[t] = records;
        alonePolled |= firstAlone && records > 0;
        return records;
    }

    /** Appends a fetch of each of the task's partitions that has records not fetched and none buffered. */
    private void fetch(int t, Deque<long[]> buffer) {
        int[] partitions = partitionsOfTask[t];
        for (int i = 0; i < partitions.length; i++) {
            int p = partitions[(i + rotation) % partitions.length];
            if (fetched[p] < end[p] && !buffered[p]) {
                long records = Math.min(settings.fetchRecordsPerPartition(), end[p] - fetched[p]);
                fetched[p] += records;
                buffered[p] = true;
                buffer.addLast(new long[] {p, records});
            }
        }
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

    /** Every delivered offset committed, as the old tasks do when the group takes their partitions. */
    private void commitDelivered() {
        System.arraycopy(delivered, 0, committed, 0, delivered.length);
    }

    /** Task t's delivered offsets committed, once its commit interval has passed since its last commit. */
    private void commitWhenDue(int t, long nowMillis) {
        if (nowMillis - committedAtMillis[t] >= settings.commitIntervalSeconds() * 1000) {
            for (int p : partitionsOfTask[t]) {
                committed[p] = delivered[p];
            }
            committedAtMillis[t] = nowMillis;
        }
    }

    long appended() {
        return sum(end);
    }

    /** Documents the sink wrote. */
    long written() {
        return written;
    }

    /** Records not yet written, from the offsets: not yet polled (fetched or not), plus the rest of the batches in flight. */
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
        PipelineSample.WorkerMetrics metrics = taskMetrics(nowMillis, rebalancing);
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
                null,
                List.of(new PipelineSample.IndexReading(TOPIC, TOPIC, written, 1, 0, null, null, null)),
                1,
                0L,
                writeQueue,
                List.of(),
                Map.of(),
                null,
                metrics,
                SinkWrites.IN_PUT);
    }

    /**
     * What each task's worker would publish since the last sample: its busy fraction (as 1 − its poll-idle ratio) and
     * its read rate, so the scaler's own derivation reads each task's busy time and capacity from them.
     */
    private PipelineSample.WorkerMetrics taskMetrics(long nowMillis, boolean rebalancing) {
        double seconds = (nowMillis - sampledAtMillis) / 1000.0;
        sampledAtMillis = nowMillis;
        Map<Integer, PipelineSample.TaskMetrics> metrics = new TreeMap<>();
        if (!rebalancing && seconds > 0) {
            for (int t = 0; t < busySeconds.length; t++) {
                double busy = Math.min(1, busySeconds[t] / seconds);
                metrics.put(
                        t,
                        new PipelineSample.TaskMetrics(
                                "simulator", 1 - busy, 0.0, null, writtenBy[t] / seconds, null, null, null));
            }
        }
        Arrays.fill(busySeconds, 0);
        Arrays.fill(writtenBy, 0);
        return new PipelineSample.WorkerMetrics(metrics, Map.of());
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
