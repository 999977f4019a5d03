package io.kcscale.local.experiment;

import java.util.Map;

/**
 * The topic's log-end offsets and the sink group's committed offsets, read together at {@code atMillis}.
 * A partition the group never committed counts from 0: a sink group starts at the earliest offset.
 */
record Offsets(double atMillis, Map<Integer, Long> end, Map<Integer, Long> committed) {

    long committed(int partition) {
        return committed.getOrDefault(partition, 0L);
    }

    long lag(int partition) {
        return end.getOrDefault(partition, 0L) - committed(partition);
    }

    long lag() {
        return end.keySet().stream().mapToLong(this::lag).sum();
    }

    long appended() {
        return end.values().stream().mapToLong(Long::longValue).sum();
    }

    long consumed() {
        return end.keySet().stream().mapToLong(this::committed).sum();
    }
}
