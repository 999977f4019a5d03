package io.kcscale.local;

import io.kcscale.scaler.kafka.KafkaReadingsClient;
import java.util.Map;

/**
 * The topic's log-end offsets and the sink group's committed offsets, read together at {@code atMillis}.
 * A partition the group never committed counts from 0: a sink group starts at the earliest offset.
 */
public record Offsets(double atMillis, Map<Integer, Long> end, Map<Integer, Long> committed) {

    /** Reads {@code topic}'s log-end offsets, then {@code group}'s committed ones. */
    public static Offsets read(KafkaReadingsClient kafka, String group, String topic) {
        Map<Integer, Long> end = kafka.endOffsets(topic);
        return new Offsets(System.currentTimeMillis(), end, kafka.committedOffsets(group, topic));
    }

    public long committed(int partition) {
        return committed.getOrDefault(partition, 0L);
    }

    public long lag(int partition) {
        return end.getOrDefault(partition, 0L) - committed(partition);
    }

    public long lag() {
        return end.keySet().stream().mapToLong(this::lag).sum();
    }

    public long appended() {
        return end.values().stream().mapToLong(Long::longValue).sum();
    }

    public long consumed() {
        return end.keySet().stream().mapToLong(this::committed).sum();
    }
}
