package io.kcscale.scaler.checks;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.kcscale.scaler.checks.keys.DistinctCounter.Distinct;
import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.model.PipelineSnapshot;

/**
 * {@code key-cardinality}: distinct keys in a sample of recent records against the partitions. A
 * key maps to one partition, so D keys feed at most D partitions and at most D tasks; the rule of
 * thumb is D ≥ 10× partitions, 20× good. Critical when fewer keys than the tasks wanted.
 */
public final class KeyCardinalityCheck implements Check {

    public static final String ID = "key-cardinality";
    static final int MINIMUM_PER_PARTITION = 10;
    static final int GOOD_PER_PARTITION = 20;
    /** A field with a distinct value in at least this share of records is per-record unique: it groups nothing. */
    static final double UNIQUE_SHARE = 0.9;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        KeySample keys = samples.keys();
        Optional<SourceKey> source = snapshot.topics().isEmpty() || samples.otherConnectors() == null ? Optional.empty()
                : SourceKey.find(snapshot.topics().get(0), samples.otherConnectors());
        String firstField = keys == null ? null : keys.firstField();
        Evidence e = new Evidence()
                .put("keyField", source.map(s -> s.describe(firstField)).orElse(null))
                .put("sourceConnector", source.map(SourceKey::connector).orElse(null));
        // the sample reads one topic (the first of several): its keys fill that topic's partitions only
        Integer partitions = keys != null && snapshot.partitionsPerTopic() != null
                && snapshot.partitionsPerTopic().containsKey(keys.topic()) ? snapshot.partitionsPerTopic().get(keys.topic())
                : snapshot.partitions();
        if (keys == null) {
            return finding(Severity.INFO, "key cardinality unknown: " + samples.keysUnavailable(), e,
                    "Retry when Kafka answers; the check reads recent records of every partition.");
        }
        Distinct d = keys.keys();
        long keyed = keys.records() - keys.nullKeys();
        e.put("distinctKeys", d.count()).put("distinctKeysExact", d.exact());
        if (!d.exact()) {
            e.put("distinctKeysLowerBound", d.lowerBound()).put("distinctKeysUpperBound", d.upperBound());
        }
        e.put("partitions", partitions).put("tasks", samples.tasksWanted())
                .ratio("ratio", partitions == null || partitions == 0 ? null : (double) d.count() / partitions)
                .put("sampledRecords", keys.records()).put("nullKeys", keys.nullKeys())
                .put("partitionsSampled", keys.partitionsRead())
                .ratio("samplingSeconds", keys.elapsedMillis() / 1000.0)
                .put("fieldDistinctValues", fieldCounts(keys)).put("fieldRecords", keys.recordsWithFields());
        if (snapshot.severalTopics()) {
            e.put("sampledTopic", keys.topic());
        }
        if (partitions == null) {
            return finding(Severity.INFO, "key cardinality cannot be judged: the partition count is unknown", e,
                    "Retry when Kafka answers.");
        }
        if (keys.records() == 0) {
            return finding(Severity.INFO, "no records to sample in " + keys.topic(), e,
                    "Run the check again once records flow.");
        }
        if (keyed == 0) {
            return finding(Severity.OK, "records carry no key: the producer spreads them over all " + partitions + " partitions",
                    e, "Keyless records keep no per-key order; if order matters, key by a field with ≥ "
                            + GOOD_PER_PARTITION * partitions + " distinct values.");
        }
        long good = (long) GOOD_PER_PARTITION * partitions;
        long minimum = (long) MINIMUM_PER_PARTITION * partitions;
        if (keyed < good && d.count() * 2 > keyed) {
            return finding(Severity.INFO, "sample too small to judge: " + d.count() + " distinct keys in " + keyed
                    + " keyed records, most of them different", e,
                    "Sample more records (--sample-records, sampleRecords): at least " + good + " are needed to show 20× "
                            + partitions + " partitions.");
        }
        String ratio = String.format(Locale.ROOT, "%.1f×", (double) d.count() / partitions);
        if (d.count() < samples.tasksWanted()) {
            return finding(Severity.CRITICAL, "only " + d.count() + " distinct keys: at most " + d.count() + " of "
                    + partitions + " partitions receive records, so at most " + d.count() + " of " + samples.tasksWanted()
                    + " tasks can work", e, fix(keys, source, d, partitions));
        }
        if (d.count() < minimum) {
            return finding(Severity.WARNING, d.count() + " distinct keys for " + partitions + " partitions (" + ratio
                    + "): below the 10× rule, partitions fill unevenly", e, fix(keys, source, d, partitions));
        }
        if (d.count() < good) {
            return finding(Severity.INFO, d.count() + " distinct keys for " + partitions + " partitions (" + ratio
                    + "): enough, under the 20× that spreads well", e, fix(keys, source, d, partitions));
        }
        return finding(Severity.OK, d.count() + " distinct keys for " + partitions + " partitions (" + ratio + ")", e,
                "Keep distinct keys ≥ 20× partitions: adding partitions raises the keys needed (" + good + " now).");
    }

    private static Map<String, Long> fieldCounts(KeySample keys) {
        Map<String, Long> counts = new LinkedHashMap<>();
        keys.fieldValues().forEach((field, distinct) -> counts.put(field, distinct.count()));
        return counts;
    }

    /** The advice for too few keys: a better field when the sampled values show one, and why partitions won't help. */
    private static String fix(KeySample keys, Optional<SourceKey> source, Distinct d, int partitions) {
        Optional<String> keyField = source.flatMap(s -> s.field(keys.firstField()));
        Optional<Map.Entry<String, Distinct>> better = betterField(keys, keyField.orElse(null), d.count(), partitions);
        StringBuilder advice = new StringBuilder();
        if (better.isPresent()) {
            String field = better.get().getKey();
            advice.append("Key by ").append(field).append(": it had ").append(better.get().getValue().count())
                    .append(" distinct values in the ").append(keys.recordsWithFields()).append(" sampled records");
            keyField.ifPresent(k -> advice.append(", the key field ").append(k).append(" ").append(d.count()));
            advice.append(".");
            if (source.isPresent() && source.get().configurable()) {
                advice.append(" On source connector ").append(source.get().connector()).append(" set \"")
                        .append(SourceKey.KEY_FIELD).append("\": \"").append(field).append("\"");
                if (source.get().firstField()) {
                    advice.append(" (unset, the key is the record's first field)");
                }
                advice.append(".");
            }
        } else {
            advice.append("No field of the sampled values has more distinct values than the key: key by a combination of fields.");
        }
        return advice.append(" More partitions do not help: ").append(d.count()).append(" keys fill at most ")
                .append(d.count()).append(" partitions. Aim for ≥ ").append((long) GOOD_PER_PARTITION * partitions)
                .append(" distinct keys (20× ").append(partitions).append(" partitions).").toString();
    }

    /**
     * The field to suggest: of the fields that meet the 20× rule and are not unique per record, the
     * one with the fewest values (the coarsest grouping that still spreads); else the field with the
     * most values above the key's.
     */
    static Optional<Map.Entry<String, Distinct>> betterField(KeySample keys, String keyField, long keyCount, int partitions) {
        List<Map.Entry<String, Distinct>> candidates = keys.fieldValues().entrySet().stream()
                .filter(f -> !f.getKey().equals(keyField) && f.getValue().count() > keyCount)
                .toList();
        long unique = (long) Math.ceil(UNIQUE_SHARE * keys.recordsWithFields());
        Optional<Map.Entry<String, Distinct>> spreading = candidates.stream()
                .filter(f -> f.getValue().count() >= (long) GOOD_PER_PARTITION * partitions && f.getValue().count() < unique)
                .min(Comparator.comparingLong(f -> f.getValue().count()));
        return spreading.isPresent() ? spreading
                : candidates.stream().max(Comparator.comparingLong(f -> f.getValue().count()));
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
