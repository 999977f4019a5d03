package io.kcscale.connectors.camel;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.DoubleSupplier;
import org.apache.camel.Exchange;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;

/**
 * Where one bulk task's {@code _bulk} requests spend their time, kept as running totals: for each
 * request the instants its batch was ready (the aggregator closed it), a place in flight was obtained
 * (slot), it was handed to the HTTP client (sent) and its answer came (answered), added up as three
 * waits, each into a fixed set of buckets; and the time the task's thread waited for room to hand
 * records over and the aggregator's thread waited for a slot. Fixed buckets and sums only, however many
 * requests: a reader takes two readings and subtracts them to see one stretch of time.
 *
 * <p>Published through the task's plugin metrics ({@code kafka.connect:type=plugins,connector=...,task=...}),
 * which Connect removes when the task stops; {@code configs/jmx-exporter/connect-worker.yml} exports them.
 */
final class BulkRequestTrace {

    /** The exchange property carrying a batch's {@link Request} from the aggregator to the producer. */
    static final String REQUEST_PROPERTY = "kcscaleBulkRequest";

    /** The three parts of a request's life, in order. */
    enum Wait {
        READY_TO_SLOT("ready-to-slot"),
        SLOT_TO_SENT("slot-to-sent"),
        SENT_TO_ANSWERED("sent-to-answered");

        private final String label;

        Wait(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    /**
     * Upper bounds of the buckets, in µs: 1, 1.5, 2, 3, 5 and 7 per decade from 10 µs to 7 s, about 1.4
     * apart, so a percentile read off them is within that factor; longer waits count only in the total.
     */
    static final List<Long> BOUNDS_MICROS = bounds();

    private final long[][] atMost = new long[Wait.values().length][BOUNDS_MICROS.size()];
    private final long[] count = new long[Wait.values().length];
    private final long[] sumNanos = new long[Wait.values().length];
    private long roomWaitNanos;
    private long slotWaitNanos;

    /** One request's instants on {@link System#nanoTime()}. */
    synchronized void request(long ready, long slot, long sent, long answered) {
        add(Wait.READY_TO_SLOT, slot - ready);
        add(Wait.SLOT_TO_SENT, sent - slot);
        add(Wait.SENT_TO_ANSWERED, answered - sent);
    }

    /** The task's thread waited this long for fewer records in flight before handing more over. */
    synchronized void waitedForRoom(long nanos) {
        roomWaitNanos += Math.max(0, nanos);
    }

    /** The aggregator's thread waited this long for a request to end before it could send the next. */
    synchronized void waitedForSlot(long nanos) {
        slotWaitNanos += Math.max(0, nanos);
    }

    /** Requests whose {@code wait} lasted at most bucket {@code bucket}'s bound (cumulative, as Prometheus's {@code le}). */
    synchronized long atMost(Wait wait, int bucket) {
        return atMost[wait.ordinal()][bucket];
    }

    synchronized long count(Wait wait) {
        return count[wait.ordinal()];
    }

    synchronized long sumNanos(Wait wait) {
        return sumNanos[wait.ordinal()];
    }

    synchronized long roomWaitNanos() {
        return roomWaitNanos;
    }

    synchronized long slotWaitNanos() {
        return slotWaitNanos;
    }

    /**
     * Publishes the totals as the task's plugin metrics: {@code bulk-request-waits-WAIT-le-SECONDS} per
     * bucket, {@code bulk-request-waits-WAIT-total}, {@code bulk-request-wait-seconds-WAIT-total},
     * {@code bulk-room-wait-seconds-total} and {@code bulk-slot-wait-seconds-total}.
     */
    void publish(PluginMetrics metrics) {
        for (Wait wait : Wait.values()) {
            for (int bucket = 0; bucket < BOUNDS_MICROS.size(); bucket++) {
                int b = bucket;
                gauge(
                        metrics,
                        "bulk-request-waits-" + wait.label() + "-le-" + seconds(BOUNDS_MICROS.get(bucket)),
                        "Bulk requests whose " + wait.label() + " wait lasted at most this many seconds",
                        () -> atMost(wait, b));
            }
            gauge(
                    metrics,
                    "bulk-request-waits-" + wait.label() + "-total",
                    "Bulk requests answered",
                    () -> count(wait));
            gauge(
                    metrics,
                    "bulk-request-wait-seconds-" + wait.label() + "-total",
                    "Seconds bulk requests spent in their " + wait.label() + " wait, added up",
                    () -> sumNanos(wait) / 1e9);
        }
        gauge(
                metrics,
                "bulk-room-wait-seconds-total",
                "Seconds the task's thread waited for room in flight before handing records over",
                () -> roomWaitNanos() / 1e9);
        gauge(
                metrics,
                "bulk-slot-wait-seconds-total",
                "Seconds the aggregator's thread waited for a request to end before sending the next",
                () -> slotWaitNanos() / 1e9);
    }

    private static void gauge(PluginMetrics metrics, String name, String description, DoubleSupplier value) {
        metrics.addMetric(metrics.metricName(name, description, new LinkedHashMap<>()), (Gauge<Double>)
                (config, now) -> value.getAsDouble());
    }

    private void add(Wait wait, long nanos) {
        long waited = Math.max(0, nanos);
        int w = wait.ordinal();
        count[w]++;
        sumNanos[w] += waited;
        for (int bucket = BOUNDS_MICROS.size() - 1;
                bucket >= 0 && waited <= BOUNDS_MICROS.get(bucket) * 1000;
                bucket--) {
            atMost[w][bucket]++;
        }
    }

    static String seconds(long micros) {
        return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString();
    }

    private static List<Long> bounds() {
        long[] steps = {10, 15, 20, 30, 50, 70};
        List<Long> bounds = new ArrayList<>();
        for (long decade = 1; decade <= 100_000; decade *= 10) {
            for (long step : steps) {
                bounds.add(step * decade);
            }
        }
        return List.copyOf(bounds);
    }

    /**
     * One batch on its way: made when the aggregator closes it, carried on its exchange to the producer,
     * which marks the slot and the sending; the answer may come on the client's thread before the
     * producer's thread has marked the sending, so whichever of the two comes last adds it to the trace.
     */
    static final class Request {

        private final BulkRequestTrace trace;
        private final long ready;
        private long slot;
        private long sent;
        private long answered;
        private boolean isSent;
        private boolean isAnswered;

        Request(BulkRequestTrace trace, long ready) {
            this.trace = trace;
            this.ready = ready;
        }

        /** The batch's request, or one that traces nothing when no task traces it (the stock task). */
        static Request of(Exchange batch) {
            Request request = batch.getProperty(REQUEST_PROPERTY, Request.class);
            return request != null ? request : new Request(null, System.nanoTime());
        }

        synchronized void slot(long now, long waitedForSlot) {
            slot = now;
            if (trace != null) {
                trace.waitedForSlot(waitedForSlot);
            }
        }

        synchronized void sent(long now) {
            sent = now;
            isSent = true;
            addWhenBoth();
        }

        synchronized void answered(long now) {
            answered = now;
            isAnswered = true;
            addWhenBoth();
        }

        private void addWhenBoth() {
            if (trace != null && isSent && isAnswered) {
                trace.request(ready, slot, sent, Math.max(sent, answered));
            }
        }
    }
}
