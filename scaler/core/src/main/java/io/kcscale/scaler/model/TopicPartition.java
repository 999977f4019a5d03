package io.kcscale.scaler.model;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/** One partition of one topic: the key of every Kafka reading, since a sink may read many topics. */
public record TopicPartition(String topic, int partition) implements Comparable<TopicPartition> {

    private static final Comparator<TopicPartition> ORDER =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    @Override
    public int compareTo(TopicPartition other) {
        return ORDER.compare(this, other);
    }

    /** Kafka's own spelling, {@code topic-partition}, as its tools print it. */
    @Override
    public String toString() {
        return topic + "-" + partition;
    }

    /** Readings of one topic's partitions, keyed by topic and partition. */
    public static <V> Map<TopicPartition, V> onTopic(String topic, Map<Integer, V> byPartition) {
        Map<TopicPartition, V> keyed = new TreeMap<>();
        byPartition.forEach((p, v) -> keyed.put(new TopicPartition(topic, p), v));
        return keyed;
    }

    /** The readings grouped by topic, then partition, both ascending. */
    public static <V> Map<String, Map<Integer, V>> byTopic(Map<TopicPartition, V> readings) {
        Map<String, Map<Integer, V>> grouped = new TreeMap<>();
        readings.forEach((tp, v) ->
                grouped.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(tp.partition(), v));
        return grouped;
    }

    /** Partitions as the sink's people read them: the number alone for a sink of one topic, else {@code topic-partition}. */
    public static Collection<?> named(Collection<TopicPartition> partitions, boolean severalTopics) {
        return severalTopics
                ? partitions.stream().map(TopicPartition::toString).toList()
                : partitions.stream().map(TopicPartition::partition).toList();
    }
}
