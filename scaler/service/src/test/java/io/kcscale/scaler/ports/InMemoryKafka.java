package io.kcscale.scaler.ports;

import io.kcscale.scaler.kafka.KafkaUnavailableException;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Kafka as the scaler reads it, held in memory: topics with their end offsets, groups with their committed offsets
 * and members. A topic or group it does not hold fails alone, as Kafka's answer for it would; {@link #down} fails
 * every call.
 */
public final class InMemoryKafka implements KafkaReadings {

    /** A group: its state, assignor and protocol, and per topic the client id consuming each partition. */
    public record Group(String state, String assignor, String protocol, Map<String, Map<Integer, String>> owners) {}

    public final Map<String, Map<Integer, Long>> endOffsets = new ConcurrentHashMap<>();
    /** By group, then topic. */
    public final Map<String, Map<String, Map<Integer, Long>>> committed = new ConcurrentHashMap<>();

    public final Map<String, Group> groups = new ConcurrentHashMap<>();
    public final AtomicInteger reads = new AtomicInteger();
    public final AtomicInteger topicListings = new AtomicInteger();
    public volatile int brokers = 1;
    /** When set, every call throws it. */
    public volatile RuntimeException down;

    /** A topic of {@code ends.size()} partitions with those end offsets. */
    public InMemoryKafka topic(String topic, long... ends) {
        Map<Integer, Long> offsets = new ConcurrentHashMap<>();
        for (int p = 0; p < ends.length; p++) {
            offsets.put(p, ends[p]);
        }
        endOffsets.put(topic, offsets);
        return this;
    }

    /** A stable group consuming {@code topic} with the range assignor, with the committed offsets and owners given. */
    public InMemoryKafka group(String group, String topic, Map<Integer, Long> offsets, Map<Integer, String> owners) {
        committed.computeIfAbsent(group, g -> new ConcurrentHashMap<>()).put(topic, offsets);
        Group known = groups.get(group);
        Map<String, Map<Integer, String>> all = new ConcurrentHashMap<>(known == null ? Map.of() : known.owners());
        all.put(topic, owners);
        groups.put(group, new Group("STABLE", "range", "CLASSIC", all));
        return this;
    }

    @Override
    public Batch read(Collection<String> topics, Collection<String> groupIds) {
        failIfDown();
        reads.incrementAndGet();
        Set<String> askedTopics = new TreeSet<>(topics);
        Set<String> askedGroups = new TreeSet<>(groupIds);
        return new Batch() {
            @Override
            public Map<Integer, Long> endOffsets(String topic) {
                if (!askedTopics.contains(topic)) {
                    throw new IllegalArgumentException("topic " + topic + " was not part of this reading");
                }
                return Map.copyOf(ends(topic));
            }

            @Override
            public Map<Integer, Long> committedOffsets(String group, String topic) {
                if (!askedGroups.contains(group)) {
                    throw new IllegalArgumentException("group " + group + " was not part of this reading");
                }
                return Map.copyOf(committed.getOrDefault(group, Map.of()).getOrDefault(topic, Map.of()));
            }

            @Override
            public GroupView describeGroup(String group, String topic) {
                if (!askedGroups.contains(group)) {
                    throw new IllegalArgumentException("group " + group + " was not part of this reading");
                }
                return InMemoryKafka.this.describeGroup(group, topic);
            }
        };
    }

    @Override
    public Set<String> topicNames() {
        failIfDown();
        topicListings.incrementAndGet();
        return Set.copyOf(endOffsets.keySet());
    }

    @Override
    public int partitionCount(String topic) {
        failIfDown();
        return ends(topic).size();
    }

    @Override
    public GroupView describeGroup(String group, String topic) {
        failIfDown();
        Group g = groups.get(group);
        if (g == null) {
            return new GroupView("DEAD", Map.of(), "", "CLASSIC");
        }
        return new GroupView(
                g.state(), Map.copyOf(g.owners().getOrDefault(topic, Map.of())), g.assignor(), g.protocol());
    }

    @Override
    public int brokerCount() {
        failIfDown();
        return brokers;
    }

    private Map<Integer, Long> ends(String topic) {
        Map<Integer, Long> ends = endOffsets.get(topic);
        if (ends == null) {
            throw new KafkaUnavailableException(
                    "Kafka request failed: This server does not host this topic-partition: " + topic, null);
        }
        return ends;
    }

    private void failIfDown() {
        RuntimeException e = down;
        if (e != null) {
            throw e;
        }
    }

    /** The client id Connect gives a sink task's consumer. */
    public static String taskClientId(String connector, int task) {
        return "connector-consumer-" + connector + "-" + task;
    }

    /** Owners for {@code partitions} partitions, given round-robin to {@code tasks} tasks. */
    public static Map<Integer, String> owners(String connector, int partitions, int tasks) {
        Map<Integer, String> owners = new ConcurrentHashMap<>();
        for (int p = 0; p < partitions; p++) {
            owners.put(p, taskClientId(connector, p % tasks));
        }
        return owners;
    }
}
