package io.kcscale.scaler.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A partition's lag age as its oldest unconsumed record's own timestamp gives it, beside the age the scaler
 * interpolates from its end-offset history: the cross-check a user asks for, record by record.
 *
 * @param committedOffset       the sink group's committed offset: the next record it will consume
 * @param recordTimestampMillis that record's timestamp (its producer's create time, or the broker's append time,
 *                              as the topic keeps it), or null when it could not be read in time
 * @param recordSeconds         now less that timestamp, or null with it
 * @param interpolatedSeconds   the scaler's own age for the partition, or null when unknown
 * @param lowerBound            the interpolated age is a lower bound (the record predates the scaler's history)
 */
public record RecordAge(
        String topic,
        int partition,
        long committedOffset,
        Long recordTimestampMillis,
        Double recordSeconds,
        Double interpolatedSeconds,
        boolean lowerBound) {

    /** The most partitions one cross-check reads: each costs a fetch. */
    public static final int MAX_PARTITIONS = 64;

    /** The partitions worth a look: those with lag whose committed offset is known, oldest first, at most {@link #MAX_PARTITIONS}. */
    public static List<PipelineSnapshot.PartitionLag> toCheck(
            List<PipelineSnapshot.PartitionLag> partitions, Map<TopicPartition, Long> committed) {
        return partitions.stream()
                .filter(p -> p.records() > 0 && committed.containsKey(new TopicPartition(p.topic(), p.partition())))
                .sorted(Comparator.comparing(
                        (PipelineSnapshot.PartitionLag p) -> p.seconds() == null ? -1 : p.seconds(),
                        Comparator.reverseOrder()))
                .limit(MAX_PARTITIONS)
                .toList();
    }

    /** Each checked partition's ages at {@code nowMillis}, from the timestamps read at the committed offsets. */
    public static List<RecordAge> of(
            List<PipelineSnapshot.PartitionLag> checked,
            Map<TopicPartition, Long> committed,
            Map<TopicPartition, Long> timestamps,
            long nowMillis) {
        List<RecordAge> ages = new ArrayList<>();
        for (PipelineSnapshot.PartitionLag p : checked) {
            TopicPartition tp = new TopicPartition(p.topic(), p.partition());
            Long at = timestamps.get(tp);
            ages.add(new RecordAge(
                    p.topic(),
                    p.partition(),
                    committed.get(tp),
                    at,
                    at == null ? null : Math.max(0, nowMillis - at) / 1000.0,
                    p.seconds(),
                    p.lowerBound()));
        }
        return ages;
    }
}
