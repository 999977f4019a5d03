package io.kcscale.scaler.checks;

import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The tasks that can do work, now and at the task count wanted: the partitions the key samples found
 * holding records (whatever partitioner the producer used), of every topic the sink reads, placed on tasks by
 * the group's assignor ({@link TaskPlacement}). When the assignor's placement cannot be computed, the count now
 * is read from the live assignment and the count wanted gets at most one task per partition with records.
 *
 * @param withRecords  the partitions that hold records, ascending by topic then partition
 * @param severalTopics whether the sink reads several topics (partitions are then named {@code topic-partition})
 * @param partitions   the most tasks that can hold a partition: the topic's partitions, or for several topics as the
 *                     assignor deals them
 * @param exact        whether the placement is computed (range, round-robin) rather than bounded
 * @param tasksNow     the tasks the group has now
 * @param busyNow      of which receive records; null when the live assignment is unknown
 * @param busyWanted   tasks that would receive records at {@code tasksWanted}: exactly, or at most
 * @param busyTaskIds  which they are when exact, else null
 */
record BusyTasks(
        List<TopicPartition> withRecords,
        boolean severalTopics,
        int partitions,
        String assignor,
        boolean exact,
        int tasksNow,
        Integer busyNow,
        int tasksWanted,
        int busyWanted,
        List<Integer> busyTaskIds) {

    /** Empty when a topic the sink reads has no sample, or no partition holds records. */
    static Optional<BusyTasks> of(PipelineSnapshot snapshot, CheckSamples samples) {
        if (samples.keys() == null) {
            return Optional.empty();
        }
        // each sample counted its topic's partitions when it read them, the snapshot's count may be older
        Map<String, Integer> partitionsPerTopic = new TreeMap<>();
        if (snapshot.partitionsPerTopic() != null) {
            partitionsPerTopic.putAll(snapshot.partitionsPerTopic());
        }
        Set<TopicPartition> hot = new TreeSet<>();
        for (KeySample keys : samples.keys()) {
            partitionsPerTopic.put(keys.topic(), keys.partitions());
            keys.partitionsWithRecords().forEach(p -> hot.add(new TopicPartition(keys.topic(), p)));
        }
        Set<String> sampled = samples.keys().stream().map(KeySample::topic).collect(Collectors.toSet());
        if (!sampled.containsAll(snapshot.topics())
                || !sampled.containsAll(partitionsPerTopic.keySet())
                || hot.isEmpty()) {
            return Optional.empty();
        }
        List<TopicPartition> withRecords = List.copyOf(hot);
        boolean several = partitionsPerTopic.size() > 1;
        String assignor = RebalanceConfigCheck.assignor(samples);
        // the consumer protocol assigns on the broker, keeping earlier placements like the sticky assignors
        boolean classic = !"CONSUMER".equalsIgnoreCase(samples.groupProtocol());
        // a status read while Connect rebalances can list fewer tasks than it runs, or none: tasks.max is then the
        // count the group runs (judging a scale against the partial list would let through one that adds no task)
        int now = snapshot.tasksMax() != null
                ? Math.max(snapshot.tasksMax(), snapshot.tasks().size())
                : snapshot.tasks().size();
        int wanted = samples.tasksWanted();
        int bound = TaskPlacement.tasksWithPartitionsAtMost(assignor, partitionsPerTopic);
        Optional<List<Integer>> placedNow =
                classic ? busy(assignor, partitionsPerTopic, withRecords, now) : Optional.empty();
        Optional<List<Integer>> placedWanted =
                classic ? busy(assignor, partitionsPerTopic, withRecords, wanted) : Optional.empty();
        if (placedWanted.isPresent()) {
            return Optional.of(new BusyTasks(
                    withRecords,
                    several,
                    bound,
                    assignor,
                    true,
                    now,
                    placedNow.map(List::size).orElse(0),
                    wanted,
                    placedWanted.get().size(),
                    placedWanted.get()));
        }
        return Optional.of(new BusyTasks(
                withRecords,
                several,
                bound,
                assignor,
                false,
                now,
                observedBusy(snapshot, hot),
                wanted,
                Math.min(withRecords.size(), wanted),
                null));
    }

    /** The ids of the tasks, ascending, that get a partition with records; empty when the assignor is not predictable. */
    private static Optional<List<Integer>> busy(
            String assignor, Map<String, Integer> partitionsPerTopic, List<TopicPartition> withRecords, int tasks) {
        return TaskPlacement.place(assignor, partitionsPerTopic, tasks)
                .map(owners -> List.copyOf(
                        new TreeSet<>(withRecords.stream().map(owners::get).toList())));
    }

    /** Tasks whose live partitions include one with records; null when no task reports partitions. */
    private static Integer observedBusy(PipelineSnapshot snapshot, Set<TopicPartition> hot) {
        if (snapshot.tasks().stream().allMatch(t -> t.topicPartitions().isEmpty())) {
            return null;
        }
        return (int) snapshot.tasks().stream()
                .filter(t -> t.topicPartitions().stream().anyMatch(hot::contains))
                .count();
    }

    /** The partitions with records as the sink's people read them: numbers for one topic, {@code topic-partition} for several. */
    Object partitionsWithRecords() {
        return TopicPartition.named(withRecords, severalTopics);
    }

    /** A scale-up after which no more tasks receive records than now. */
    boolean scaleUpAddsNone() {
        return tasksWanted > tasksNow && busyNow != null && busyWanted <= busyNow;
    }

    /** How the busy tasks were found, for evidence and titles: "range assignment", or why it is a bound. */
    String placement() {
        return exact
                ? assignor + " assignment"
                : "at most one task per partition with records (" + (assignor.isEmpty() ? "unknown assignor" : assignor)
                        + " keeps earlier placements, so which tasks get them cannot be computed)";
    }

    Evidence addTo(Evidence e) {
        return e.put("partitionsWithRecords", partitionsWithRecords())
                .put("placement", placement())
                .put("busyTasksNow", busyNow)
                .put(exact ? "busyTasksWanted" : "busyTasksWantedAtMost", busyWanted)
                .put("busyTaskIdsWanted", busyTaskIds);
    }
}
