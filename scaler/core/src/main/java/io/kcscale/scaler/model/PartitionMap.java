package io.kcscale.scaler.model;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable reading per partition, in partition order, whose partitions are shared with an earlier reading of
 * the same partitions. A window holds a sample of every partition a sink reads every interval, each with three
 * such readings: as tree maps they cost some 240 bytes per partition per sample, which put the scaler's heap, not
 * its CPU, at the end of a fleet's size. Shared, a reading costs a reference and its value.
 */
public final class PartitionMap<V> extends AbstractMap<TopicPartition, V> {

    /** The partitions in order and where each sits: one per distinct set of partitions, shared by its readings. */
    static final class Partitions {
        private final TopicPartition[] ordered;
        private final Map<TopicPartition, Integer> positions;

        private Partitions(TopicPartition[] ordered) {
            this.ordered = ordered;
            this.positions = new HashMap<>(ordered.length * 4 / 3 + 1);
            for (int i = 0; i < ordered.length; i++) {
                positions.put(ordered[i], i);
            }
        }

        private boolean sameAs(TopicPartition[] others) {
            return Arrays.equals(ordered, others);
        }
    }

    private final Partitions partitions;
    private final Object[] values;

    private PartitionMap(Partitions partitions, Object[] values) {
        this.partitions = partitions;
        this.values = values;
    }

    /**
     * The readings as a shared map; null for null. When {@code earlier} is a map of this kind over the same
     * partitions, the new one shares them.
     */
    public static <V> PartitionMap<V> of(Map<TopicPartition, V> readings, Map<TopicPartition, ?> earlier) {
        if (readings == null) {
            return null;
        }
        TopicPartition[] ordered = readings.keySet().toArray(new TopicPartition[0]);
        Arrays.sort(ordered);
        Partitions shared = earlier instanceof PartitionMap<?> e && e.partitions.sameAs(ordered)
                ? e.partitions
                : new Partitions(ordered);
        Object[] values = new Object[ordered.length];
        for (int i = 0; i < ordered.length; i++) {
            values[i] = readings.get(ordered[i]);
        }
        return new PartitionMap<>(shared, values);
    }

    /** Whether the two share their partitions (for tests). */
    boolean sharesPartitionsWith(PartitionMap<?> other) {
        return partitions == other.partitions;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return partitions.positions.containsKey(key);
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        Integer at = partitions.positions.get(key);
        return at == null ? null : (V) values[at];
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<? super TopicPartition, ? super V> action) {
        for (int i = 0; i < values.length; i++) {
            action.accept(partitions.ordered[i], (V) values[i]);
        }
    }

    @Override
    public Set<Entry<TopicPartition, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return values.length;
            }

            @Override
            public Iterator<Entry<TopicPartition, V>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<TopicPartition, V> next() {
                        if (next >= values.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(partitions.ordered[i], (V) values[i]);
                    }
                };
            }
        };
    }

    /** The window compares each sample's assignment with the one before: over shared partitions, values alone. */
    @Override
    public boolean equals(Object other) {
        if (other instanceof PartitionMap<?> o && o.partitions == partitions) {
            return Arrays.equals(values, o.values);
        }
        return super.equals(other);
    }
}
