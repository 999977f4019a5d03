package io.kcscale.scaler.checks.keys;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Accumulates a sample record by record: the key of each, then each top-level field of its value.
 * Counts distinct keys and, per field, distinct values, each exactly up to its bound and by sketch
 * beyond. Not thread-safe: one sampler feeds it.
 */
public final class KeyTally {

    /** Keys counted exactly up to this many; a sketch estimates beyond. */
    public static final int EXACT_KEYS = 10_000;
    /** Field values counted exactly up to this many each: enough to compare fields with the key. */
    public static final int EXACT_FIELD_VALUES = 1_000;
    /** Fields tracked at most, so that a wide record cannot make the sample's memory grow without end. */
    public static final int MAX_FIELDS = 32;
    /**
     * Records whose fields are counted: the first this many of the sample. Enough to show which field
     * spreads (20× a few hundred partitions), while parsing every value would make sampling several
     * times slower than reading.
     */
    public static final int FIELD_RECORDS = 50_000;

    private final DistinctCounter keys = new DistinctCounter(EXACT_KEYS);
    private final Map<String, DistinctCounter> fields = new LinkedHashMap<>();
    private long records;
    private long nullKeys;
    private long recordsWithFields;
    private long lastRecordWithFields;
    private String firstField;

    /** One more sampled record, by its key (null when it has none). */
    public void record(byte[] key) {
        records++;
        if (key == null) {
            nullKeys++;
        } else {
            keys.add(key);
        }
    }

    /** Whether the record last passed to {@link #record} is one whose fields are counted. */
    public boolean wantsFields() {
        return records <= FIELD_RECORDS;
    }

    /** A top-level scalar field of the value of the record last passed to {@link #record}. */
    public void field(String name, String value) {
        if (lastRecordWithFields != records) {
            lastRecordWithFields = records;
            recordsWithFields++;
            if (firstField == null) {
                firstField = name;
            }
        }
        DistinctCounter counter = fields.get(name);
        if (counter == null) {
            if (fields.size() >= MAX_FIELDS) {
                return;
            }
            counter = new DistinctCounter(EXACT_FIELD_VALUES);
            fields.put(name, counter);
        }
        counter.add(value);
    }

    public long records() {
        return records;
    }

    public KeySample sample(
            String topic,
            int partitions,
            int partitionsRead,
            long elapsedMillis,
            String stoppedBy,
            List<Integer> partitionsWithRecords) {
        Map<String, DistinctCounter.Distinct> values = new LinkedHashMap<>();
        fields.forEach((name, counter) -> values.put(name, counter.estimate()));
        return new KeySample(
                topic,
                records,
                nullKeys,
                keys.estimate(),
                values,
                recordsWithFields,
                firstField,
                partitions,
                partitionsRead,
                elapsedMillis,
                stoppedBy,
                List.copyOf(partitionsWithRecords));
    }
}
