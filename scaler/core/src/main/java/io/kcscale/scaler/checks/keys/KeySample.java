package io.kcscale.scaler.checks.keys;

import java.util.List;
import java.util.Map;

/**
 * What a sample of a topic's recent records showed of their keys and values.
 *
 * @param records          records sampled
 * @param nullKeys         of which had no key
 * @param keys             distinct keys among the others
 * @param fieldValues      distinct values of each top-level field of the (JSON object) values, by field name
 * @param recordsWithFields records whose value was a JSON object, of the first {@link KeyTally#FIELD_RECORDS} sampled
 * @param firstField       the first field of the first such value, or null
 * @param partitionsRead   partitions that had records in the sampled range
 * @param stoppedBy        why sampling ended: {@code end} of every partition, {@code records} or {@code time} budget
 * @param partitionsWithRecords the partitions that held records when sampling began (end offset past the start),
 *                         ascending: known from offsets, so exact whatever the budget cut short
 */
public record KeySample(
        String topic,
        long records,
        long nullKeys,
        DistinctCounter.Distinct keys,
        Map<String, DistinctCounter.Distinct> fieldValues,
        long recordsWithFields,
        String firstField,
        int partitions,
        int partitionsRead,
        long elapsedMillis,
        String stoppedBy,
        List<Integer> partitionsWithRecords) {

    /** Records sampled per second of sampling. */
    public double recordsPerSecond() {
        return elapsedMillis == 0 ? records * 1000.0 : records * 1000.0 / elapsedMillis;
    }
}
