package io.kcscale.lab.bench;

import io.kcscale.scaler.prometheus.ExpositionSample;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The scaler's own cost as one scrape of its {@code /metrics} shows it: the sampling-round histogram, its
 * CPU time and heap. Two scrapes make a window ({@link #until}). Parsing and arithmetic only: pure.
 *
 * @param roundBuckets   the round histogram's cumulative counts by upper bound ({@code le}), +Inf included
 * @param heapAfterGc    heap used after the latest collection, or null before the first
 */
record ScalerScrape(
        long atNanos,
        NavigableMap<Double, Long> roundBuckets,
        long rounds,
        double roundSeconds,
        int roundConnectors,
        double cpuSeconds,
        Long heapAfterGc,
        long heapMax) {

    static final String ROUND = "kcscale_sampling_round_seconds";

    /** @throws IllegalArgumentException naming the first figure the text lacks (a scaler without these metrics) */
    static ScalerScrape parse(long atNanos, String exposition) {
        NavigableMap<Double, Long> buckets = new TreeMap<>();
        Map<String, Double> values = new TreeMap<>();
        for (String line : exposition.split("\n")) {
            ExpositionSample.parse(line).ifPresent(sample -> {
                if (sample.name().equals(ROUND + "_bucket") && sample.labels().containsKey("le")) {
                    buckets.put(ExpositionSample.number(sample.labels().get("le")), (long) sample.value());
                } else if (sample.labels().isEmpty()) {
                    values.put(sample.name(), sample.value());
                }
            });
        }
        if (buckets.isEmpty()) {
            throw new IllegalArgumentException(
                    "the scaler's /metrics has no " + ROUND + " histogram: is it a scaler of this version?");
        }
        Double heap = values.get("kcscale_scaler_heap_used_after_gc_bytes");
        return new ScalerScrape(
                atNanos,
                buckets,
                required(values, ROUND + "_count").longValue(),
                required(values, ROUND + "_sum"),
                values.getOrDefault("kcscale_sampling_round_connectors", 0.0).intValue(),
                required(values, "kcscale_scaler_cpu_seconds_total"),
                heap == null ? null : heap.longValue(),
                required(values, "kcscale_scaler_heap_max_bytes").longValue());
    }

    private static Double required(Map<String, Double> values, String name) {
        Double v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the scaler's /metrics has no " + name);
        }
        return v;
    }

    /** What happened between this scrape and a {@code later} one. */
    Window until(ScalerScrape later) {
        NavigableMap<Double, Long> delta = new TreeMap<>();
        later.roundBuckets.forEach((le, count) -> delta.put(le, count - roundBuckets.getOrDefault(le, 0L)));
        long rounds = later.rounds - this.rounds;
        double seconds = (later.atNanos - atNanos) / 1e9;
        return new Window(
                seconds,
                rounds,
                rounds == 0 ? Double.NaN : (later.roundSeconds - roundSeconds) / rounds,
                quantile(delta, 0.5),
                quantile(delta, 0.99),
                (later.cpuSeconds - cpuSeconds) / seconds);
    }

    /**
     * @param roundMeanSeconds exact: the histogram's sum over its count
     * @param roundP50Seconds  estimated from the buckets, as Prometheus' histogram_quantile does (linear within a bucket)
     * @param cpuShare         CPU seconds per second of the window: the share of one core
     */
    record Window(
            double seconds,
            long rounds,
            double roundMeanSeconds,
            double roundP50Seconds,
            double roundP99Seconds,
            double cpuShare) {}

    /**
     * The q-quantile of cumulative bucket counts, interpolated linearly within the bucket it falls in (from 0
     * for the first); NaN without observations; the highest finite bound when it falls in +Inf.
     */
    static double quantile(NavigableMap<Double, Long> cumulative, double q) {
        long total = cumulative.lastEntry().getValue();
        if (total <= 0) {
            return Double.NaN;
        }
        double rank = q * total;
        double lower = 0;
        long below = 0;
        for (Map.Entry<Double, Long> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= rank) {
                if (bucket.getKey().isInfinite()) {
                    return lower;
                }
                long inBucket = bucket.getValue() - below;
                return inBucket == 0 ? bucket.getKey() : lower + (bucket.getKey() - lower) * (rank - below) / inBucket;
            }
            lower = bucket.getKey();
            below = bucket.getValue();
        }
        return lower;
    }
}
