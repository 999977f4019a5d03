package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code partition-count}: partitions cap the useful tasks (partitions ≥ tasks), and only partitions
 * that hold records give a task work ({@link BusyTasks}); on small clusters many partitions per topic
 * cost throughput (a field report saw a drop past ~100).
 */
public final class PartitionCountCheck implements Check {

    public static final String ID = "partition-count";
    /** The field guideline: stay under about this many partitions per topic on small clusters. */
    static final int GUIDELINE = 100;
    /** Brokers up to this many make a small cluster for the guideline. */
    static final int SMALL_CLUSTER_BROKERS = 3;

    private static final String REMAP_CAVEAT =
            "Adding partitions re-maps keys (hash(key) mod partitions changes): for a "
                    + "moment one key's records sit in two partitions and per-key order breaks; add them when lag is near zero.";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(
                CheckInput.BROKERS, CheckInput.KEYS, CheckInput.GROUP, CheckInput.CONNECTORS, CheckInput.WORKER_CONFIG);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        Integer partitions = snapshot.partitions();
        int wanted = samples.tasksWanted();
        Evidence e = new Evidence()
                .put("partitions", partitions)
                .put("tasksWanted", wanted)
                .put("brokers", samples.brokers())
                .put("partitionGuideline", GUIDELINE);
        if (partitions == null) {
            return finding(
                    Severity.INFO,
                    "the partition count is unknown (Kafka did not answer)",
                    e,
                    "Run the check again when Kafka answers.");
        }
        String topic = snapshot.topics().isEmpty() ? "TOPIC" : snapshot.topics().get(0);
        if (snapshot.severalTopics() && snapshot.partitionsPerTopic() != null) {
            return severalTopics(snapshot, samples, e);
        }
        if (wanted > partitions) {
            return finding(
                    Severity.WARNING,
                    wanted + " tasks wanted, " + partitions + " partitions: " + (wanted - partitions)
                            + " task(s) would have nothing to consume",
                    e,
                    "Add partitions before tasks: kafka-topics.sh --bootstrap-server " + "BROKER --alter --topic "
                            + topic + " --partitions " + wanted + ". " + REMAP_CAVEAT);
        }
        if (partitions > GUIDELINE) {
            boolean small = samples.brokers() != null && samples.brokers() <= SMALL_CLUSTER_BROKERS;
            return finding(
                    small ? Severity.WARNING : Severity.INFO,
                    partitions + " partitions in one topic: beyond the ~" + GUIDELINE
                            + " per topic a small cluster handles well",
                    e,
                    "Partitions cannot be removed: for a new topic "
                            + "choose fewer (at least the tasks you will need, " + wanted
                            + " now) and move the sink to it.");
        }
        Optional<BusyTasks> busy = BusyTasks.of(snapshot, samples);
        if (busy.isPresent() && busy.get().withRecords().size() < partitions) {
            BusyTasks b = busy.get();
            int holding = b.withRecords().size();
            e.put("partitionsWithRecords", holding)
                    .put(b.exact() ? "tasksThatCanWork" : "tasksThatCanWorkAtMost", b.busyWanted())
                    .put("placement", b.placement());
            return finding(
                    Severity.OK,
                    partitions + " partitions for " + wanted + " tasks, " + holding + " holding records: "
                            + (b.exact() ? "" : "at most ") + b.busyWanted() + " of the " + wanted + " tasks can work ("
                            + b.placement()
                            + "), and never more than " + holding,
                    e,
                    "More partitions or tasks do not give more tasks work while the keys" + " reach " + holding
                            + " partitions: spread the keys first (see key-cardinality). " + REMAP_CAVEAT);
        }
        return finding(
                Severity.OK,
                partitions + " partitions for " + wanted + " tasks: room for up to " + partitions + " tasks",
                e,
                "Beyond " + partitions + " tasks, add partitions first. " + REMAP_CAVEAT);
    }

    /**
     * A sink of several topics: the assignor decides how many tasks can get a partition (range: the largest topic's
     * count), and the ~100 guideline holds per topic.
     */
    private static Finding severalTopics(PipelineSnapshot snapshot, CheckSamples samples, Evidence e) {
        Map<String, Integer> perTopic = snapshot.partitionsPerTopic();
        String assignor = RebalanceConfigCheck.assignor(samples);
        int canWork = TaskPlacement.tasksWithPartitionsAtMost(assignor, perTopic);
        int wanted = samples.tasksWanted();
        Map.Entry<String, Integer> largest =
                perTopic.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        e.put("partitionsPerTopic", perTopic).put("assignor", assignor).put("tasksWithPartitionsAtMost", canWork);
        String why = TaskPlacement.boundReason(assignor, perTopic);
        if (wanted > canWork) {
            return finding(
                    Severity.WARNING,
                    wanted + " tasks wanted, at most " + canWork + " can get a partition: " + why,
                    e,
                    "Add partitions before tasks ("
                            + (canWork < snapshot.partitions()
                                    ? "under range, to the largest topic: "
                                            + "kafka-topics.sh --bootstrap-server BROKER --alter --topic "
                                            + largest.getKey() + " --partitions " + wanted
                                            + "; or assign with cooperative-sticky, which spreads the partitions of all topics: see rebalance-config"
                                    : "kafka-topics.sh --alter --partitions on the topics")
                            + "). " + REMAP_CAVEAT);
        }
        if (largest.getValue() > GUIDELINE) {
            boolean small = samples.brokers() != null && samples.brokers() <= SMALL_CLUSTER_BROKERS;
            return finding(
                    small ? Severity.WARNING : Severity.INFO,
                    largest.getValue() + " partitions in topic " + largest.getKey() + ": beyond the ~" + GUIDELINE
                            + " per topic a small cluster handles well",
                    e,
                    "Partitions cannot be removed: " + "for a new topic choose fewer and move the sink to it.");
        }
        return finding(
                Severity.OK,
                snapshot.partitions() + " partitions in " + perTopic.size() + " topics for " + wanted
                        + " tasks: room for up to " + canWork + " tasks (" + why + ")",
                e,
                "Beyond " + canWork + " tasks, add partitions" + " first. " + REMAP_CAVEAT);
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
