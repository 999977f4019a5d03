package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.TopicPartition;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Where the sink group's assignor puts its partitions, and so which tasks can work. Range assigns each
 * topic on its own (Kafka's default: three tasks on topics of 3, 8 and 12 partitions each get some of
 * every topic, and a 13th gets none however many partitions there are in all); round-robin deals all the
 * topics' partitions together. Both follow from the counts alone; sticky assignors (cooperative-sticky
 * included) and the consumer protocol's uniform assignor also spread all partitions, but keep what each task
 * held before, so which task gets which cannot be computed from counts. Pure.
 */
public final class TaskPlacement {

    static final String RANGE = "range";
    static final String ROUND_ROBIN = "roundrobin";

    private TaskPlacement() {}

    /** Whether {@code assignor}'s placement follows from the counts alone. */
    static boolean predictable(String assignor) {
        return RANGE.equals(assignor) || ROUND_ROBIN.equals(assignor);
    }

    /**
     * The most tasks that get a partition under {@code assignor}: under range the largest topic's count, under
     * any other the partitions of all topics. An unknown assignor (a group without members) counts as range,
     * the first of the consumer's default strategies, so the bound is never too generous.
     */
    public static int tasksWithPartitionsAtMost(String assignor, Map<String, Integer> partitionsPerTopic) {
        boolean perTopic = assignor == null || assignor.isBlank() || RANGE.equals(assignor);
        return perTopic
                ? partitionsPerTopic.values().stream()
                        .mapToInt(Integer::intValue)
                        .max()
                        .orElse(0)
                : partitionsPerTopic.values().stream()
                        .mapToInt(Integer::intValue)
                        .sum();
    }

    /**
     * Why at most {@link #tasksWithPartitionsAtMost} tasks get a partition, for a sink of several topics (one
     * topic needs no words: its partition count is the bound).
     */
    public static String boundReason(String assignor, Map<String, Integer> partitionsPerTopic) {
        boolean perTopic = assignor == null || assignor.isBlank() || RANGE.equals(assignor);
        int all =
                partitionsPerTopic.values().stream().mapToInt(Integer::intValue).sum();
        if (!perTopic) {
            return assignor + " assignment spreads the " + all + " partitions of the " + partitionsPerTopic.size()
                    + " topics together";
        }
        String largest = partitionsPerTopic.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .orElse("?");
        return (assignor == null || assignor.isBlank()
                        ? "range assignment (Kafka's default; the group has no members to ask)"
                        : "range assignment")
                + " assigns each of the " + partitionsPerTopic.size() + " topics on its own, so of their "
                + all + " partitions at most " + tasksWithPartitionsAtMost(assignor, partitionsPerTopic)
                + " (those of the largest, "
                + largest + ") go to different tasks";
    }

    /**
     * The task each partition goes to under range or round-robin with {@code tasks} tasks, every task reading
     * every topic (a sink's tasks share one subscription); empty when the assignor is not {@link #predictable}.
     */
    public static Optional<Map<TopicPartition, Integer>> place(
            String assignor, Map<String, Integer> partitionsPerTopic, int tasks) {
        if (!predictable(assignor) || tasks < 1) {
            return Optional.empty();
        }
        List<Integer> members = memberOrder(tasks);
        Map<TopicPartition, Integer> owners = new TreeMap<>();
        int dealt = 0;
        // round-robin deals the partitions of all topics, sorted by topic name, then partition, in one round
        for (Map.Entry<String, Integer> topic : new TreeMap<>(partitionsPerTopic).entrySet()) {
            for (int p = 0; p < topic.getValue(); p++) {
                int position = RANGE.equals(assignor) ? rangePosition(p, topic.getValue(), tasks) : dealt++ % tasks;
                owners.put(new TopicPartition(topic.getKey(), p), members.get(position));
            }
        }
        return Optional.of(owners);
    }

    /**
     * The ids of the tasks, ascending, that get at least one of {@code withRecords} among one topic's
     * {@code partitions} partitions; empty when the assignor is not {@link #predictable}.
     */
    static Optional<List<Integer>> busyTasks(
            String assignor, int partitions, Collection<Integer> withRecords, int tasks) {
        return place(assignor, Map.of("", partitions), tasks)
                .map(owners -> List.copyOf(new TreeSet<>(withRecords.stream()
                        .map(p -> owners.get(new TopicPartition("", p)))
                        .toList())));
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
        return IntStream.range(0, tasks)
                .boxed()
                .sorted((a, b) -> a.toString().compareTo(b.toString()))
                .toList();
    }
}
