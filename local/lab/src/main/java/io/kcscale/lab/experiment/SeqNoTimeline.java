package io.kcscale.lab.experiment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * When each primary shard of an index assigned its sequence numbers: marks of (wall-clock time,
 * highest sequence number so far), per shard. A primary numbers its operations in the order it
 * indexes them, so the time a document was indexed lies between the last mark below its number and
 * the first at or above it; linear interpolation places it inside. Pure; safe to share between threads.
 */
public final class SeqNoTimeline {

    private record Mark(double atMillis, long maxSeqNo) {}

    private final Map<Integer, List<Mark>> marks = new HashMap<>();

    /** Records that {@code shard}'s highest sequence number was {@code maxSeqNo} at {@code atMillis}; marks come in time order. */
    public synchronized void add(int shard, double atMillis, long maxSeqNo) {
        marks.computeIfAbsent(shard, s -> new ArrayList<>()).add(new Mark(atMillis, maxSeqNo));
    }

    /** When {@code shard} assigned {@code seqNo}, in epoch milliseconds; empty when no mark brackets it. */
    public synchronized OptionalDouble indexedAt(int shard, long seqNo) {
        List<Mark> list = marks.getOrDefault(shard, List.of());
        for (int i = 1; i < list.size(); i++) {
            Mark before = list.get(i - 1);
            Mark after = list.get(i);
            if (before.maxSeqNo() < seqNo && seqNo <= after.maxSeqNo()) {
                double share = (double) (seqNo - before.maxSeqNo()) / (after.maxSeqNo() - before.maxSeqNo());
                return OptionalDouble.of(before.atMillis() + share * (after.atMillis() - before.atMillis()));
            }
        }
        return OptionalDouble.empty();
    }

    /** {@code shard}'s highest sequence number at the last mark not after {@code atMillis}; empty before the first mark. */
    public synchronized OptionalLong maxSeqNoAt(int shard, double atMillis) {
        OptionalLong found = OptionalLong.empty();
        for (Mark m : marks.getOrDefault(shard, List.of())) {
            if (m.atMillis() > atMillis) {
                break;
            }
            found = OptionalLong.of(m.maxSeqNo());
        }
        return found;
    }
}
