package io.kcscale.lab.chaos;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every offset of a topic against what reached the index and the dead-letter topic. A document's id is
 * its record's {@code topic-partition-offset}; a bit per offset and partition holds what was indexed,
 * so memory grows with the records (an eighth of a byte each), not with the ids. Elasticsearch keeps
 * one document per id, so a record indexed twice shows as a document whose id is no record's, or as
 * the same id read twice from a scan: both count as duplicated.
 */
public final class OffsetLedger {

    /** A few lost offsets are named, as evidence; not all of them. */
    static final int LOST_EXAMPLES = 10;

    private final String topic;
    private final Map<Integer, Long> endOffsets;
    private final Map<Integer, Long> committed;
    private final Set<Coordinates> malformed;
    private final Map<Integer, BitSet> indexed = new HashMap<>();
    private final Set<Coordinates> deadLettered = new HashSet<>();
    private long duplicated;

    /** The offset of one record of the topic. */
    public record Coordinates(int partition, long offset) {
        @Override
        public String toString() {
            return partition + "-" + offset;
        }
    }

    /**
     * @param endOffsets the topic's log-end offset per partition, once nothing more is appended; every offset
     *                   below it is one record (the topic is fresh: none were deleted)
     * @param committed  the sink's committed offset per partition: a record below it without its document is lost,
     *                   one at or past it is still pending (the sink has not got that far)
     * @param malformed  the records that are no JSON document: they belong in the dead-letter topic, not the index
     */
    public OffsetLedger(
            String topic, Map<Integer, Long> endOffsets, Map<Integer, Long> committed, Set<Coordinates> malformed) {
        this.topic = topic;
        this.endOffsets = Map.copyOf(endOffsets);
        this.committed = Map.copyOf(committed);
        this.malformed = Set.copyOf(malformed);
    }

    /** A document of the index, by its id. */
    public void indexed(String documentId) {
        Coordinates c = parse(documentId);
        if (c == null || malformed.contains(c) || c.offset() >= endOffsets.getOrDefault(c.partition(), 0L)) {
            duplicated++;
            return;
        }
        BitSet bits = indexed.computeIfAbsent(c.partition(), p -> new BitSet());
        if (bits.get((int) c.offset())) {
            duplicated++;
        }
        bits.set((int) c.offset());
    }

    /** A record of the dead-letter topic, by the coordinates of the record it stands for. */
    public void deadLettered(int partition, long offset) {
        deadLettered.add(new Coordinates(partition, offset));
    }

    public Reconciliation result() {
        long records = endOffsets.values().stream().mapToLong(Long::longValue).sum();
        long indexedCount =
                indexed.values().stream().mapToLong(BitSet::cardinality).sum();
        long malformedToDeadLetter =
                malformed.stream().filter(deadLettered::contains).count();
        long missing = records - malformed.size() - indexedCount;
        long pending = endOffsets.keySet().stream()
                .mapToLong(p -> missingFrom(p, committed.getOrDefault(p, 0L)))
                .sum();
        return new Reconciliation(
                records,
                indexedCount,
                missing - pending,
                pending,
                duplicated,
                malformed.size(),
                malformedToDeadLetter,
                lostExamples());
    }

    /** Well-formed records of partition {@code p} from {@code offset} on without their document. */
    private long missingFrom(int p, long offset) {
        BitSet bits = indexed.getOrDefault(p, new BitSet());
        long missing = 0;
        for (long o = offset; o < endOffsets.get(p); o++) {
            if (!bits.get((int) o) && !malformed.contains(new Coordinates(p, o))) {
                missing++;
            }
        }
        return missing;
    }

    private List<String> lostExamples() {
        List<String> lost = new ArrayList<>();
        endOffsets.keySet().stream().sorted().forEach(p -> {
            BitSet bits = indexed.getOrDefault(p, new BitSet());
            for (long o = 0;
                    o < Math.min(endOffsets.get(p), committed.getOrDefault(p, 0L)) && lost.size() < LOST_EXAMPLES;
                    o++) {
                if (!bits.get((int) o) && !malformed.contains(new Coordinates(p, o))) {
                    lost.add(topic + "-" + p + "-" + o);
                }
            }
        });
        return lost;
    }

    /** {@code topic-partition-offset}, the topic itself may hold dashes; null when it is no record's id of this topic. */
    private Coordinates parse(String id) {
        if (!id.startsWith(topic + "-")) {
            return null;
        }
        String[] rest = id.substring(topic.length() + 1).split("-");
        if (rest.length != 2) {
            return null;
        }
        try {
            int partition = Integer.parseInt(rest[0]);
            long offset = Long.parseLong(rest[1]);
            return partition >= 0 && offset >= 0 && offset <= Integer.MAX_VALUE
                    ? new Coordinates(partition, offset)
                    : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
