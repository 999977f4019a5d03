package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.TopicPartition;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code idle-tasks}: tasks that cannot work: with no partition assigned, with partitions that
 * received no records in the window, or beyond the partition count; for a scale-up, the tasks the
 * count asked for would have that receive records ({@link BusyTasks}): critical when none more would.
 */
public final class IdleTasksCheck implements Check {

    public static final String ID = "idle-tasks";
    /**
     * A task is starved only when its partitions would have received at least this many records at
     * the topic's mean rate: fewer can be none by chance.
     */
    static final int MIN_EXPECTED_RECORDS = 10;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(
                CheckInput.WINDOW, CheckInput.KEYS, CheckInput.GROUP, CheckInput.CONNECTORS, CheckInput.WORKER_CONFIG);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        Integer partitions = snapshot.partitions();
        String assignor = RebalanceConfigCheck.assignor(samples);
        // several topics under range: only the largest topic's partitions go to different tasks
        Integer canGetPartitions = snapshot.partitionsPerTopic() == null
                ? partitions
                : Integer.valueOf(TaskPlacement.tasksWithPartitionsAtMost(assignor, snapshot.partitionsPerTopic()));
        int wanted = samples.tasksWanted();
        boolean assignmentKnown = !samples.window().isEmpty()
                && samples.window().get(samples.window().size() - 1).assignment() != null;
        Map<TopicPartition, Double> rates = snapshot.rates().appendPerTopicPartition();
        boolean appended =
                snapshot.rates().appendPerSecond() != null && snapshot.rates().appendPerSecond() > 0;
        double expectedPerPartition = !appended
                ? 0
                : snapshot.rates().appendPerSecond()
                        / rates.size()
                        * PartitionSkewCheck.spanSeconds(samples.window()).orElse(0.0);
        List<Integer> withoutPartitions = new ArrayList<>();
        List<Integer> starved = new ArrayList<>();
        if (assignmentKnown) {
            for (PipelineSnapshot.Task t : snapshot.tasks()) {
                List<TopicPartition> owned = t.topicPartitions();
                if (owned.isEmpty()) {
                    withoutPartitions.add(t.id());
                } else if (expectedPerPartition * owned.size() >= MIN_EXPECTED_RECORDS
                        && owned.stream().allMatch(p -> rates.getOrDefault(p, 0.0) == 0)) {
                    starved.add(t.id());
                }
            }
        }
        TreeSet<Integer> idle = new TreeSet<>(withoutPartitions);
        idle.addAll(starved);
        int beyond = canGetPartitions == null ? 0 : Math.max(0, wanted - canGetPartitions);
        boolean several = snapshot.severalTopics() && snapshot.partitionsPerTopic() != null;
        Evidence e = new Evidence()
                .put("tasks", snapshot.tasks().size())
                .put("tasksWanted", wanted)
                .put("partitions", partitions)
                .put("idleTasks", List.copyOf(idle))
                .put("tasksWithoutPartitions", withoutPartitions)
                .put("starvedTasks", starved)
                .ratio("appendPerSecond", snapshot.rates().appendPerSecond());
        if (several) {
            e.put("partitionsPerTopic", snapshot.partitionsPerTopic())
                    .put("assignor", assignor)
                    .put("tasksWithPartitionsAtMost", canGetPartitions);
        }
        Optional<BusyTasks> busy = BusyTasks.of(snapshot, samples);
        busy.ifPresent(b -> b.addTo(e));
        if (busy.isPresent() && busy.get().scaleUpAddsNone()) {
            BusyTasks b = busy.get();
            return finding(
                    Severity.CRITICAL,
                    b.tasksNow() + " → " + wanted + " tasks adds no working task: records sit in "
                            + "partitions " + b.partitionsWithRecords() + " only, and under " + b.placement() + " "
                            + b.tasksNow()
                            + " tasks have " + b.busyNow() + " receiving records, " + wanted + " would have "
                            + b.busyWanted(),
                    e,
                    "The new tasks would get only partitions without records. Spread the keys over more partitions (see "
                            + "key-cardinality); until then " + b.busyNow() + " tasks deliver what more would.");
        }
        List<String> problems = new ArrayList<>();
        List<String> advice = new ArrayList<>();
        // tasks beyond the partition count are said below
        busy.filter(b -> wanted > b.tasksNow() && b.busyWanted() < Math.min(wanted, b.partitions()))
                .ifPresent(b -> {
                    problems.add((b.exact() ? "only " : "at most ") + b.busyWanted() + " of " + wanted
                            + " tasks would receive records" + " (partitions " + b.partitionsWithRecords()
                            + " hold them; " + b.placement() + ")");
                    advice.add(
                            "The other " + (wanted - b.busyWanted()) + " would get only partitions without records.");
                });
        if (!starved.isEmpty()) {
            problems.add(tasks(starved) + " got no records: " + (starved.size() == 1 ? "its" : "their")
                    + " partitions received none in the window");
            advice.add("Their partitions stay empty because the keys never map to them (see key-cardinality and "
                    + "partition-skew): fix the keys; until then fewer tasks deliver the same throughput.");
        }
        if (!withoutPartitions.isEmpty()) {
            problems.add(tasks(withoutPartitions) + " " + (withoutPartitions.size() == 1 ? "has" : "have")
                    + " no partition");
        }
        if (beyond > 0) {
            problems.add(wanted + " tasks for " + partitions + " partitions: " + beyond + " would sit idle"
                    + (several ? " (" + TaskPlacement.boundReason(assignor, snapshot.partitionsPerTopic()) + ")" : ""));
        }
        if (!withoutPartitions.isEmpty() || beyond > 0) {
            advice.add("A task consumes whole partitions: set tasks.max to at most "
                    + (canGetPartitions == null ? "the partition count" : canGetPartitions)
                    + ", or add partitions first (see partition-count).");
        }
        if (!problems.isEmpty()) {
            return finding(Severity.WARNING, String.join("; ", problems), e, String.join(" ", advice));
        }
        if (snapshot.tasks().isEmpty()) {
            return finding(Severity.INFO, "the connector has no tasks", e, "Start the connector or raise tasks.max.");
        }
        if (!assignmentKnown) {
            return finding(
                    Severity.INFO,
                    "which task consumes which partition is unknown (the sink group did not answer)",
                    e,
                    "Run the check again when Kafka answers.");
        }
        if (!appended) {
            return finding(
                    Severity.INFO,
                    "every task has partitions; no records arrived in the window to tell idle tasks apart",
                    e,
                    "Run the check again under load.");
        }
        return finding(
                Severity.OK,
                "all " + snapshot.tasks().size() + " tasks have partitions that received records",
                e,
                "Nothing to do.");
    }

    private static String tasks(List<Integer> ids) {
        return ids.size() == 1 ? "task " + ids.get(0) : "tasks " + ids;
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
