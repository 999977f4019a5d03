package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.connectors.camel.BulkRequestTrace.Wait;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.junit.jupiter.api.Test;

class BulkRequestTraceTest {

    private static final long MS = 1_000_000;

    private final BulkRequestTrace trace = new BulkRequestTrace();

    @Test
    void eachRequestAddsItsThreeWaitsToTheBucketsAtOrAboveThem() {
        // ready at 0, a slot after 2 ms, sent 40 µs later, answered 120 ms after that
        trace.request(0, 2 * MS, 2 * MS + 40_000, 122 * MS + 40_000);
        // another: no wait for a slot, 3 ms to send, answered after 9 s (past the last bucket)
        trace.request(10 * MS, 10 * MS, 13 * MS, 9_013 * MS);

        assertEquals(2, trace.count(Wait.READY_TO_SLOT));
        assertEquals(2 * MS, trace.sumNanos(Wait.READY_TO_SLOT));
        assertEquals(1, atMost(Wait.READY_TO_SLOT, 10), "only the wait of 0 is at most 10 µs");
        assertEquals(1, atMost(Wait.READY_TO_SLOT, 1_500));
        assertEquals(2, atMost(Wait.READY_TO_SLOT, 2_000), "a bound counts the waits equal to it");

        assertEquals(0, atMost(Wait.SLOT_TO_SENT, 30));
        assertEquals(1, atMost(Wait.SLOT_TO_SENT, 50));
        assertEquals(2, atMost(Wait.SLOT_TO_SENT, 3_000));

        assertEquals(0, atMost(Wait.SENT_TO_ANSWERED, 100_000));
        assertEquals(1, atMost(Wait.SENT_TO_ANSWERED, 150_000));
        assertEquals(1, atMost(Wait.SENT_TO_ANSWERED, 7_000_000), "9 s counts in the total only");
        assertEquals(2, trace.count(Wait.SENT_TO_ANSWERED));
        assertEquals(9_120 * MS, trace.sumNanos(Wait.SENT_TO_ANSWERED));
    }

    @Test
    void theWaitsOfTheTwoThreadsAddUp() {
        trace.waitedForRoom(3 * MS);
        trace.waitedForRoom(4 * MS);
        trace.waitedForSlot(5 * MS);
        // a clock read the wrong way round never takes time off
        trace.waitedForSlot(-1);

        assertEquals(7 * MS, trace.roomWaitNanos());
        assertEquals(5 * MS, trace.slotWaitNanos());
    }

    @Test
    void aRequestAnsweredBeforeItsSendingWasMarkedCountsOnceBothAreKnown() {
        BulkRequestTrace.Request request = new BulkRequestTrace.Request(trace, 0);
        request.slot(MS, MS);
        request.answered(5 * MS);
        assertEquals(0, trace.count(Wait.SENT_TO_ANSWERED), "not before it is marked sent");

        request.sent(2 * MS);

        assertEquals(1, trace.count(Wait.SENT_TO_ANSWERED));
        assertEquals(MS, trace.sumNanos(Wait.READY_TO_SLOT));
        assertEquals(MS, trace.sumNanos(Wait.SLOT_TO_SENT));
        assertEquals(3 * MS, trace.sumNanos(Wait.SENT_TO_ANSWERED));
        assertEquals(MS, trace.slotWaitNanos());
    }

    @Test
    void theTotalsArePublishedAsTheTasksPluginMetrics() {
        Metrics metrics = new Metrics();
        trace.publish(new PluginMetricsImpl(metrics, Map.of("connector", "sink", "task", "0")));
        trace.request(0, MS, MS, 21 * MS);
        trace.waitedForRoom(1_500 * MS);

        assertEquals(1.0, value(metrics, "bulk-request-waits-sent-to-answered-le-0.02"));
        assertEquals(0.0, value(metrics, "bulk-request-waits-sent-to-answered-le-0.015"));
        assertEquals(1.0, value(metrics, "bulk-request-waits-ready-to-slot-le-0.001"));
        assertEquals(1.0, value(metrics, "bulk-request-waits-slot-to-sent-le-0.00001"));
        assertEquals(1.0, value(metrics, "bulk-request-waits-sent-to-answered-total"));
        assertEquals(0.02, value(metrics, "bulk-request-wait-seconds-sent-to-answered-total"), 1e-12);
        assertEquals(1.5, value(metrics, "bulk-room-wait-seconds-total"), 1e-12);
        assertEquals(0.0, value(metrics, "bulk-slot-wait-seconds-total"));
        long published = metrics.metrics().keySet().stream()
                .filter(name -> name.group().equals("plugins"))
                .count();
        assertEquals(
                3 * (BulkRequestTrace.BOUNDS_MICROS.size() + 2) + 2, published, "a fixed set, however many requests");
        metrics.close();
    }

    private long atMost(Wait wait, long boundMicros) {
        return trace.atMost(wait, BulkRequestTrace.BOUNDS_MICROS.indexOf(boundMicros));
    }

    private static double value(Metrics metrics, String name) {
        KafkaMetric metric = metrics.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(name))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " among "
                        + metrics.metrics().keySet().stream()
                                .map(MetricName::name)
                                .toList()));
        return (Double) metric.metricValue();
    }
}
