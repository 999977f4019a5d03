package io.kcscale.scaler.checks;

import io.kcscale.scaler.checks.keys.DistinctCounter.Distinct;
import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.KEYS, CheckInput.CONNECTORS);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        if (samples.keys() == null || samples.keys().isEmpty()) {
            Optional<SourceKey> source = source(
                    snapshot.topics().isEmpty() ? null : snapshot.topics().get(0), samples);
            Evidence e = new Evidence()
                    .put("keyField", source.map(s -> s.describe(null)).orElse(null))
                    .put("sourceConnector", source.map(SourceKey::connector).orElse(null));
            return finding(
                    Severity.INFO,
                    "key cardinality unknown: " + samples.keysUnavailable(),
                    e,
                    "Retry when Kafka answers; the check reads recent records of every partition.");
        }
        if (samples.keys().size() == 1 && !snapshot.severalTopics()) {
            KeySample keys = samples.keys().get(0);
            return judge(keys, partitionsOf(snapshot, keys), samples.tasksWanted(), source(keys.topic(), samples));
        }
        return severalTopics(snapshot, samples);
    }

    /**
     * A sink of several topics: each topic's keys fill that topic's partitions only, so each is judged against its own
     * partitions; together they give records to at most the sum of min(keys, partitions) partitions, and so to at most
     * that many tasks, whatever the assignor.
     */
    private static Finding severalTopics(PipelineSnapshot snapshot, CheckSamples samples) {
        Finding worst = null;
        String worstTopic = null;
        long partitionsWithKeys = 0;
        Map<String, Object> perTopic = new LinkedHashMap<>();
        for (KeySample keys : samples.keys()) {
            Integer partitions = partitionsOf(snapshot, keys);
            // no task count makes one topic critical: the tasks are shared by all topics, judged below
            Finding f = judge(keys, partitions, 0, source(keys.topic(), samples));
            perTopic.put(keys.topic(), f.evidence());
            if (partitions != null) {
                partitionsWithKeys +=
                        keys.records() > keys.nullKeys() ? Math.min(keys.keys().count(), partitions) : partitions;
            }
            if (worst == null || f.severity().compareTo(worst.severity()) > 0) {
                worst = f;
                worstTopic = keys.topic();
            }
        }
        // a topic left out of the sample (past the sampled topics' bound) may fill all its partitions
        List<String> unsampled = snapshot.topics().stream()
                .filter(t -> samples.keys().stream().noneMatch(k -> k.topic().equals(t)))
                .toList();
        for (String topic : unsampled) {
            Integer partitions = snapshot.partitionsPerTopic() == null
                    ? null
                    : snapshot.partitionsPerTopic().get(topic);
            partitionsWithKeys += partitions == null ? 0 : partitions;
        }
        Evidence e = new Evidence()
                .put("topics", samples.keys().size())
                .put("topicsNotSampled", unsampled.isEmpty() ? null : unsampled)
                .put("tasks", samples.tasksWanted())
                .put("partitionsWithKeysAtMost", partitionsWithKeys)
                .put("perTopic", perTopic);
        if (partitionsWithKeys < samples.tasksWanted()) {
            return finding(
                    Severity.CRITICAL,
                    "the keys of the " + samples.keys().size() + " topics reach at most "
                            + partitionsWithKeys + " partitions, so at most " + partitionsWithKeys + " of "
                            + samples.tasksWanted()
                            + " tasks can work",
                    e,
                    worst.advice());
        }
        return finding(worst.severity(), "topic " + worstTopic + ": " + worst.title(), e, worst.advice());
    }

    private static Integer partitionsOf(PipelineSnapshot snapshot, KeySample keys) {
        return snapshot.partitionsPerTopic() != null
                        && snapshot.partitionsPerTopic().containsKey(keys.topic())
                ? snapshot.partitionsPerTopic().get(keys.topic())
                : snapshot.severalTopics() ? null : snapshot.partitions();
    }

    private static Optional<SourceKey> source(String topic, CheckSamples samples) {
        return topic == null || samples.otherConnectors() == null
                ? Optional.empty()
                : SourceKey.find(topic, samples.otherConnectors());
    }

    /** One topic's keys against its partitions; critical when fewer keys than {@code criticalBelow} tasks. */
    private static Finding judge(KeySample keys, Integer partitions, int criticalBelow, Optional<SourceKey> source) {
        Evidence e = new Evidence()
                .put("keyField", source.map(s -> s.describe(keys.firstField())).orElse(null))
                .put("sourceConnector", source.map(SourceKey::connector).orElse(null));
        Distinct d = keys.keys();
        long keyed = keys.records() - keys.nullKeys();
        e.put("distinctKeys", d.count()).put("distinctKeysExact", d.exact());
        if (!d.exact()) {
            e.put("distinctKeysLowerBound", d.lowerBound()).put("distinctKeysUpperBound", d.upperBound());
        }
        e.put("partitions", partitions)
                .put("tasks", criticalBelow == 0 ? null : criticalBelow)
                .ratio("ratio", partitions == null || partitions == 0 ? null : (double) d.count() / partitions)
                .put("sampledRecords", keys.records())
                .put("nullKeys", keys.nullKeys())
                .put("partitionsSampled", keys.partitionsRead())
                .ratio("samplingSeconds", keys.elapsedMillis() / 1000.0)
                .put("fieldDistinctValues", fieldCounts(keys))
                .put("fieldRecords", keys.recordsWithFields());
        if (partitions == null) {
            return finding(
                    Severity.INFO,
                    "key cardinality cannot be judged: the partition count is unknown",
                    e,
                    "Retry when Kafka answers.");
        }
        if (keys.records() == 0) {
            return finding(
                    Severity.INFO,
                    "no records to sample in " + keys.topic(),
                    e,
                    "Run the check again once records flow.");
        }
        if (keyed == 0) {
            return finding(
                    Severity.OK,
                    "records carry no key: the producer spreads them over all " + partitions + " partitions",
                    e,
                    "Keyless records keep no per-key order; if order matters, key by a field with ≥ "
                            + GOOD_PER_PARTITION * partitions + " distinct values.");
        }
        long good = (long) GOOD_PER_PARTITION * partitions;
        long minimum = (long) MINIMUM_PER_PARTITION * partitions;
        if (keyed < good && d.count() * 2 > keyed) {
            return finding(
                    Severity.INFO,
                    "sample too small to judge: " + d.count() + " distinct keys in " + keyed
                            + " keyed records, most of them different",
                    e,
                    "Sample more records (--sample-records, sampleRecords): at least " + good
                            + " are needed to show 20× " + partitions + " partitions.");
        }
        String ratio = String.format(Locale.ROOT, "%.1f×", (double) d.count() / partitions);
        if (d.count() < criticalBelow) {
            return finding(
                    Severity.CRITICAL,
                    "only " + d.count() + " distinct keys: at most " + d.count() + " of "
                            + partitions + " partitions receive records, so at most " + d.count() + " of "
                            + criticalBelow
                            + " tasks can work",
                    e,
                    fix(keys, source, d, partitions));
        }
        if (d.count() < minimum) {
            return finding(
                    Severity.WARNING,
                    d.count() + " distinct keys for " + partitions + " partitions (" + ratio
                            + "): below the 10× rule, partitions fill unevenly",
                    e,
                    fix(keys, source, d, partitions));
        }
        if (d.count() < good) {
            return finding(
                    Severity.INFO,
                    d.count() + " distinct keys for " + partitions + " partitions (" + ratio
                            + "): enough, under the 20× that spreads well",
                    e,
                    fix(keys, source, d, partitions));
        }
        return finding(
                Severity.OK,
                d.count() + " distinct keys for " + partitions + " partitions (" + ratio + ")",
                e,
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
            advice.append("Key by ")
                    .append(field)
                    .append(": it had ")
                    .append(better.get().getValue().count())
                    .append(" distinct values in the ")
                    .append(keys.recordsWithFields())
                    .append(" sampled records");
            keyField.ifPresent(
                    k -> advice.append(", the key field ").append(k).append(" ").append(d.count()));
            advice.append(".");
            if (source.isPresent() && source.get().configurable()) {
                advice.append(" On source connector ")
                        .append(source.get().connector())
                        .append(" set \"")
                        .append(SourceKey.KEY_FIELD)
                        .append("\": \"")
                        .append(field)
                        .append("\"");
                if (source.get().firstField()) {
                    advice.append(" (unset, the key is the record's first field)");
                }
                advice.append(".");
            }
        } else {
            advice.append(
                    "No field of the sampled values has more distinct values than the key: key by a combination of fields.");
        }
        return advice.append(" More partitions do not help: ")
                .append(d.count())
                .append(" keys fill at most ")
                .append(d.count())
                .append(" partitions. Aim for ≥ ")
                .append((long) GOOD_PER_PARTITION * partitions)
                .append(" distinct keys (20× ")
                .append(partitions)
                .append(" partitions).")
                .toString();
    }

    /**
     * The field to suggest: of the fields that meet the 20× rule and are not unique per record, the
     * one with the fewest values (the coarsest grouping that still spreads); else the field with the
     * most values above the key's.
     */
    static Optional<Map.Entry<String, Distinct>> betterField(
            KeySample keys, String keyField, long keyCount, int partitions) {
        List<Map.Entry<String, Distinct>> candidates = keys.fieldValues().entrySet().stream()
                .filter(f -> !f.getKey().equals(keyField) && f.getValue().count() > keyCount)
                .toList();
        long unique = (long) Math.ceil(UNIQUE_SHARE * keys.recordsWithFields());
        Optional<Map.Entry<String, Distinct>> spreading = candidates.stream()
                .filter(f -> f.getValue().count() >= (long) GOOD_PER_PARTITION * partitions
                        && f.getValue().count() < unique)
                .min(Comparator.comparingLong(f -> f.getValue().count()));
        return spreading.isPresent()
                ? spreading
                : candidates.stream()
                        .max(Comparator.comparingLong(f -> f.getValue().count()));
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
