package io.kcscale.scaler.checks;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Which of a sink's tasks receive records: the partitions that hold records, placed on tasks the way
 * the group's assignor places one topic's partitions. Range and round-robin are functions of the
 * partition and task counts alone; sticky assignors (cooperative-sticky included) keep what each task
 * held before, so their placement cannot be computed from counts. Pure.
 */
final class TaskPlacement {

    static final String RANGE = "range";
    static final String ROUND_ROBIN = "roundrobin";

    private TaskPlacement() {
    }

    /** Whether {@code assignor}'s placement follows from the counts alone. */
    static boolean predictable(String assignor) {
        return RANGE.equals(assignor) || ROUND_ROBIN.equals(assignor);
    }

    /**
     * The ids of the tasks, ascending, that get at least one of {@code withRecords} among
     * {@code partitions} partitions; empty when the assignor is not {@link #predictable}.
     */
    static Optional<List<Integer>> busyTasks(String assignor, int partitions, Collection<Integer> withRecords, int tasks) {
        if (!predictable(assignor) || tasks < 1) {
            return Optional.empty();
        }
        List<Integer> members = memberOrder(tasks);
        TreeSet<Integer> busy = new TreeSet<>();
        for (int p : withRecords) {
            int position = RANGE.equals(assignor) ? rangePosition(p, partitions, tasks) : p % tasks;
            busy.add(members.get(position));
        }
        return Optional.of(List.copyOf(busy));
    }

    /**
     * Kafka's RangeAssignor: member i takes partitions [i·q + min(i, r), +q, +1 if i < r), with
     * q = partitions / tasks and r = partitions % tasks; this is the member that holds {@code partition}.
     */
    static int rangePosition(int partition, int partitions, int tasks) {
        int perTask = partitions / tasks;
        int extra = partitions % tasks;
        int inLongerRanges = extra * (perTask + 1);
        return partition < inLongerRanges ? partition / (perTask + 1) : extra + (partition - inLongerRanges) / perTask;
    }

    /**
     * Task ids in the order both assignors rank the members: by member id, which starts with the
     * consumer's client id, {@code connector-consumer-NAME-TASK}, so by the task id as text (0, 1, 10, 2, ...).
     */
    static List<Integer> memberOrder(int tasks) {
        return IntStream.range(0, tasks).boxed().sorted((a, b) -> a.toString().compareTo(b.toString())).toList();
    }
}
