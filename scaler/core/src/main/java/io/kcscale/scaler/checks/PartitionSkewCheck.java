package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.TopicPartition;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code partition-skew}: how evenly the topic's partitions received records over the window (the
 * snapshot's per-partition append rates, from offset deltas, times the span they cover). One
 * partition is consumed by one task, so the hottest partition's share caps what more tasks can
 * add; an empty partition starves the task that owns only it.
 */
public final class PartitionSkewCheck implements Check {

    public static final String ID = "partition-skew";
    /** Above this max/mean ratio one partition carries enough to cap the pipeline. */
    static final double HOT_RATIO = 2.0;
    /**
     * Fewer records per partition than this are too few to judge: a random spread of 30 per
     * partition practically never shows an empty one or one at twice the mean.
     */
    static final int MIN_RECORDS_PER_PARTITION = 30;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.WINDOW);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        Map<TopicPartition, Double> rates =
                snapshot.rates() == null ? Map.of() : snapshot.rates().appendPerTopicPartition();
        Optional<Double> span = spanSeconds(samples.window());
        Evidence e = new Evidence().put("partitions", snapshot.partitions());
        if (rates.isEmpty() || span.isEmpty()) {
            return finding(
                    Severity.INFO,
                    "not enough samples of the topic's offsets in the window yet",
                    e,
                    "Run the check again in a few seconds.");
        }
        Map<TopicPartition, Long> appended = new TreeMap<>();
        rates.forEach((p, rate) -> appended.put(p, Math.round(rate * span.get())));
        int partitions = appended.size();
        long total = appended.values().stream().mapToLong(Long::longValue).sum();
        double mean = (double) total / partitions;
        e.put("partitions", partitions)
                .put("recordsInWindow", total)
                .ratio("windowSeconds", span.get())
                .ratio("meanPerPartition", mean);
        if (total == 0) {
            return finding(
                    Severity.INFO, "no records were appended in the window", e, "Run the check again under load.");
        }
        if (mean < MIN_RECORDS_PER_PARTITION) {
            return finding(
                    Severity.INFO,
                    total + " records in the window are too few to judge " + partitions + " partitions ("
                            + MIN_RECORDS_PER_PARTITION + " per partition needed)",
                    e,
                    "Run the check again under more load, or over a longer window (the scaler's window.seconds).");
        }
        List<TopicPartition> empty = new ArrayList<>();
        TopicPartition hottest = null;
        for (Map.Entry<TopicPartition, Long> p : appended.entrySet()) {
            if (p.getValue() == 0) {
                empty.add(p.getKey());
            }
            if (hottest == null || p.getValue() > appended.get(hottest)) {
                hottest = p.getKey();
            }
        }
        long hot = appended.get(hottest);
        double ratio = hot / mean;
        double share = (double) hot / total;
        boolean several = snapshot.severalTopics();
        Object hottestName =
                TopicPartition.named(List.of(hottest), several).iterator().next();
        e.put("emptyPartitions", empty.size())
                .put("emptyPartitionIds", TopicPartition.named(empty, several))
                .put("hottestPartition", hottestName)
                .put("hottestRecords", hot)
                .ratio("hottestShare", share)
                .ratio("maxMeanRatio", ratio);
        List<String> problems = new ArrayList<>();
        if (ratio >= HOT_RATIO) {
            problems.add(String.format(
                    Locale.ROOT,
                    "partition %s took %.0f%% of the records (%.1f× the mean)",
                    hottestName,
                    share * 100,
                    ratio));
        }
        if (!empty.isEmpty()) {
            problems.add(empty.size() + " of " + partitions + " partitions received none");
        }
        if (problems.isEmpty()) {
            return finding(
                    Severity.OK,
                    String.format(
                            Locale.ROOT,
                            "records spread evenly: the hottest partition took " + "%.1f× the mean, none was empty",
                            ratio),
                    e,
                    "Nothing to do: each task's load follows its partition count.");
        }
        return finding(
                Severity.WARNING,
                String.join("; ", problems),
                e,
                String.format(
                        Locale.ROOT,
                        "One task consumes a partition, so the hottest caps the pipeline at about %.1f× one task's rate however "
                                + "many tasks run. Spread hot keys: more distinct keys (see key-cardinality), or a salt on the hottest "
                                + "keys (key + \"-\" + n for a small n) when per-key order allows.",
                        1 / share));
    }

    /** The time between the oldest and newest sample with offsets: the span the snapshot's append rates cover. */
    static Optional<Double> spanSeconds(List<PipelineSample> window) {
        List<Long> times = window.stream()
                .filter(s -> s.endOffsets() != null)
                .map(PipelineSample::atMillis)
                .toList();
        return times.size() < 2 ? Optional.empty() : Optional.of((times.get(times.size() - 1) - times.get(0)) / 1000.0);
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
