package io.kcscale.scaler.checks;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.model.PipelineSnapshot;

/**
 * The tasks that can do work, now and at the task count wanted: the partitions the key sample found
 * holding records (whatever partitioner the producer used), placed on tasks by the group's assignor
 * ({@link TaskPlacement}). When the assignor's placement cannot be computed, the count now is read
 * from the live assignment and the count wanted gets at most one task per partition with records.
 *
 * @param partitionsWithRecords the topic's partitions that hold records, ascending
 * @param exact        whether the placement is computed (range, round-robin) rather than bounded
 * @param tasksNow     the tasks the group has now
 * @param busyNow      of which receive records; null when the live assignment is unknown
 * @param busyWanted   tasks that would receive records at {@code tasksWanted}: exactly, or at most
 * @param busyTaskIds  which they are when exact, else null
 */
record BusyTasks(List<Integer> partitionsWithRecords, int partitions, String assignor, boolean exact, int tasksNow,
                 Integer busyNow, int tasksWanted, int busyWanted, List<Integer> busyTaskIds) {

    /** Empty when there is no sample, or the sink reads several topics: the sample covers only the first. */
    static Optional<BusyTasks> of(PipelineSnapshot snapshot, CheckSamples samples) {
        KeySample keys = samples.keys();
        if (keys == null || snapshot.topics().size() != 1 || keys.partitionsWithRecords().isEmpty()) {
            return Optional.empty();
        }
        List<Integer> withRecords = keys.partitionsWithRecords();
        String assignor = RebalanceConfigCheck.assignor(samples);
        // the consumer protocol assigns on the broker, keeping earlier placements like the sticky assignors
        boolean classic = !"CONSUMER".equalsIgnoreCase(samples.groupProtocol());
        // a status read while Connect rebalances can list fewer tasks than it runs, or none: tasks.max is then the
        // count the group runs (judging a scale against the partial list would let through one that adds no task)
        int now = snapshot.tasksMax() != null ? Math.max(snapshot.tasksMax(), snapshot.tasks().size()) : snapshot.tasks().size();
        int wanted = samples.tasksWanted();
        Optional<List<Integer>> placedNow = classic ? TaskPlacement.busyTasks(assignor, keys.partitions(), withRecords, now)
                : Optional.empty();
        Optional<List<Integer>> placedWanted = classic ? TaskPlacement.busyTasks(assignor, keys.partitions(), withRecords, wanted)
                : Optional.empty();
        if (placedWanted.isPresent()) {
            return Optional.of(new BusyTasks(withRecords, keys.partitions(), assignor, true, now,
                    placedNow.map(List::size).orElse(0), wanted, placedWanted.get().size(), placedWanted.get()));
        }
        return Optional.of(new BusyTasks(withRecords, keys.partitions(), assignor, false, now, observedBusy(snapshot, withRecords),
                wanted, Math.min(withRecords.size(), wanted), null));
    }

    /** Tasks whose live partitions include one with records; null when no task reports partitions. */
    private static Integer observedBusy(PipelineSnapshot snapshot, List<Integer> withRecords) {
        if (snapshot.tasks().stream().allMatch(t -> t.partitions().isEmpty())) {
            return null;
        }
        Set<Integer> hot = new HashSet<>(withRecords);
        return (int) snapshot.tasks().stream().filter(t -> t.partitions().stream().anyMatch(hot::contains)).count();
    }

    /** A scale-up after which no more tasks receive records than now. */
    boolean scaleUpAddsNone() {
        return tasksWanted > tasksNow && busyNow != null && busyWanted <= busyNow;
    }

    /** How the busy tasks were found, for evidence and titles: "range assignment", or why it is a bound. */
    String placement() {
        return exact ? assignor + " assignment" : "at most one task per partition with records (" + (assignor.isEmpty()
                ? "unknown assignor" : assignor) + " keeps earlier placements, so which tasks get them cannot be computed)";
    }

    Evidence addTo(Evidence e) {
        return e.put("partitionsWithRecords", partitionsWithRecords).put("placement", placement())
                .put("busyTasksNow", busyNow).put(exact ? "busyTasksWanted" : "busyTasksWantedAtMost", busyWanted)
                .put("busyTaskIdsWanted", busyTaskIds);
    }
}
