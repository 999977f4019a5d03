package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordAgeTest {

    private static PipelineSnapshot.PartitionLag lag(int partition, long records, Double seconds) {
        return new PipelineSnapshot.PartitionLag(
                "t", partition, records, seconds, false, LagVerdict.STALLED, records, seconds);
    }

    @Test
    void thePartitionsWithLagAreCheckedOldestFirstAndThoseWithoutACommittedOffsetLeftOut() {
        Map<TopicPartition, Long> committed = Map.of(
                new TopicPartition("t", 0), 10L, new TopicPartition("t", 1), 20L, new TopicPartition("t", 2), 30L);
        List<PipelineSnapshot.PartitionLag> checked = RecordAge.toCheck(
                List.of(lag(0, 5, 3.0), lag(1, 0, 0.0), lag(2, 7, 30.0), lag(3, 9, 99.0), lag(4, 2, null)), committed);
        assertEquals(
                List.of(2, 0),
                checked.stream().map(PipelineSnapshot.PartitionLag::partition).toList(),
                "no lag (1) and no committed offset (3, 4) are not read");
    }

    @Test
    void atMostSixtyFourPartitionsAreRead() {
        List<PipelineSnapshot.PartitionLag> many = new ArrayList<>();
        Map<TopicPartition, Long> committed = new java.util.HashMap<>();
        for (int p = 0; p < 100; p++) {
            many.add(lag(p, 1, (double) p));
            committed.put(new TopicPartition("t", p), 0L);
        }
        List<PipelineSnapshot.PartitionLag> checked = RecordAge.toCheck(many, committed);
        assertEquals(RecordAge.MAX_PARTITIONS, checked.size());
        assertEquals(99, checked.get(0).partition(), "the oldest first");
    }

    @Test
    void eachAgeIsNowLessTheRecordsTimestampBesideTheInterpolatedOne() {
        List<PipelineSnapshot.PartitionLag> checked = List.of(lag(0, 5, 30.0), lag(2, 7, 12.5));
        Map<TopicPartition, Long> committed = Map.of(new TopicPartition("t", 0), 10L, new TopicPartition("t", 2), 30L);
        List<RecordAge> ages = RecordAge.of(checked, committed, Map.of(new TopicPartition("t", 0), 70_000L), 100_000L);
        assertEquals(new RecordAge("t", 0, 10, 70_000L, 30.0, 30.0, false), ages.get(0));
        assertNull(ages.get(1).recordTimestampMillis(), "not read in time");
        assertNull(ages.get(1).recordSeconds());
        assertEquals(12.5, ages.get(1).interpolatedSeconds());
    }
}
