package io.kcscale.lab.bench;

import io.kcscale.scaler.prometheus.ExpositionSample;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A bulk sink task's trace of its {@code _bulk} requests as one scrape of its worker's JMX exporter shows
 * it (the {@code kcscale_bulk_*} series of {@code configs/jmx-exporter/connect-worker.yml}), for one
 * connector: running totals, so the difference of two scrapes is what happened between them
 * ({@link #minus}), and differences add up over several stretches ({@link #plus}). Pure.
 *
 * @param buckets     per wait, the requests whose wait lasted at most each bound in seconds (+Inf: all)
 * @param waitSeconds per wait, the seconds the requests spent in it, added up
 * @param roomSeconds the task's thread waiting for room in flight
 * @param slotSeconds the aggregator's thread waiting for a request to end
 */
record RequestTraceScrape(
        Map<String, NavigableMap<Double, Long>> buckets,
        Map<String, Double> waitSeconds,
        double roomSeconds,
        double slotSeconds) {

    /** The three waits of a request, in order, as the sink names them. */
    static final List<String> WAITS = List.of("ready-to-slot", "slot-to-sent", "sent-to-answered");

    private static final String WAITS_SERIES = "kcscale_bulk_request_waits_total";
    private static final String WAIT_SECONDS_SERIES = "kcscale_bulk_request_wait_seconds_total";
    private static final String ROOM_SERIES = "kcscale_bulk_room_wait_seconds_total";
    private static final String SLOT_SERIES = "kcscale_bulk_slot_wait_seconds_total";

    static final RequestTraceScrape NONE = new RequestTraceScrape(Map.of(), Map.of(), 0, 0);

    /**
     * The series of {@code connector}'s tasks (summed over them) in {@code exposition}.
     *
     * @throws IllegalArgumentException when it holds none: the worker's sink is not a traced bulk sink, or
     *     its exporter lacks the rules
     */
    static RequestTraceScrape parse(String exposition, String connector) {
        Map<String, NavigableMap<Double, Long>> buckets = new LinkedHashMap<>();
        Map<String, Double> waitSeconds = new LinkedHashMap<>();
        double room = 0;
        double slot = 0;
        boolean seen = false;
        for (String line : exposition.split("\n")) {
            ExpositionSample sample = ExpositionSample.parse(line).orElse(null);
            if (sample == null
                    || !sample.name().startsWith("kcscale_bulk_")
                    || !connector.equals(sample.labels().get("connector"))) {
                continue;
            }
            Map<String, String> labels = sample.labels();
            double value = sample.value();
            seen = true;
            switch (sample.name()) {
                case WAITS_SERIES ->
                    buckets.computeIfAbsent(labels.get("wait"), w -> new TreeMap<>())
                            .merge(ExpositionSample.number(labels.get("le")), (long) value, Long::sum);
                case WAIT_SECONDS_SERIES -> waitSeconds.merge(labels.get("wait"), value, Double::sum);
                case ROOM_SERIES -> room += value;
                case SLOT_SERIES -> slot += value;
                default -> {
                    // a series of a later version: not read here
                }
            }
        }
        if (!seen) {
            throw new IllegalArgumentException("the worker's exporter has no kcscale_bulk_* series for " + connector
                    + ": is it a bulk sink, and the exporter configs/jmx-exporter/connect-worker.yml's?");
        }
        return new RequestTraceScrape(buckets, waitSeconds, room, slot);
    }

    /** What happened since {@code earlier}. */
    RequestTraceScrape minus(RequestTraceScrape earlier) {
        return combine(earlier, -1);
    }

    /** Two stretches' differences together. */
    RequestTraceScrape plus(RequestTraceScrape other) {
        return combine(other, 1);
    }

    /** Requests answered (in a difference: over its stretch). */
    long requests(String wait) {
        NavigableMap<Double, Long> counts = buckets.get(wait);
        return counts == null || counts.isEmpty() ? 0 : counts.lastEntry().getValue();
    }

    /** The q-quantile of {@code wait}, in seconds, read off the buckets; NaN without requests. */
    double quantile(String wait, double q) {
        NavigableMap<Double, Long> counts = buckets.get(wait);
        return counts == null || counts.isEmpty() ? Double.NaN : ScalerScrape.quantile(counts, q);
    }

    /** The mean of {@code wait}, in seconds: exact; NaN without requests. */
    double mean(String wait) {
        long requests = requests(wait);
        return requests == 0 ? Double.NaN : waitSeconds.getOrDefault(wait, 0.0) / requests;
    }

    /** A difference over {@code seconds} of the sink's running, as the benchmark reports it. */
    ConnectorBenchResult.RequestTrace summary(double seconds) {
        return new ConnectorBenchResult.RequestTrace(
                requests(WAITS.get(WAITS.size() - 1)),
                waitMs(WAITS.get(0)),
                waitMs(WAITS.get(1)),
                waitMs(WAITS.get(2)),
                roomSeconds / seconds,
                slotSeconds / seconds);
    }

    private ConnectorBenchResult.Wait waitMs(String wait) {
        if (requests(wait) == 0) {
            return new ConnectorBenchResult.Wait(null, null, null);
        }
        return new ConnectorBenchResult.Wait(
                1000 * quantile(wait, 0.5), 1000 * quantile(wait, 0.99), 1000 * mean(wait));
    }

    private RequestTraceScrape combine(RequestTraceScrape other, int sign) {
        Map<String, NavigableMap<Double, Long>> sumBuckets = new LinkedHashMap<>();
        for (String wait : WAITS) {
            NavigableMap<Double, Long> sum = new TreeMap<>(buckets.getOrDefault(wait, new TreeMap<>()));
            other.buckets
                    .getOrDefault(wait, new TreeMap<>())
                    .forEach((le, count) -> sum.merge(le, sign * count, Long::sum));
            if (!sum.isEmpty()) {
                sumBuckets.put(wait, sum);
            }
        }
        Map<String, Double> sumSeconds = new LinkedHashMap<>(waitSeconds);
        other.waitSeconds.forEach((wait, seconds) -> sumSeconds.merge(wait, sign * seconds, Double::sum));
        return new RequestTraceScrape(
                sumBuckets, sumSeconds, roomSeconds + sign * other.roomSeconds, slotSeconds + sign * other.slotSeconds);
    }
}
