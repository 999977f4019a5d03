package io.kcscale.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequestTraceScrapeTest {

    /** As the JMX exporter 1.0.1 writes the rules' series (trimmed to three bounds), another connector's beside. */
    private static String page(long fast, long slow, double room, double slot) {
        return String.join(
                "\n",
                "# HELP kcscale_bulk_request_waits_total Bulk requests",
                "# TYPE kcscale_bulk_request_waits_total counter",
                series("sink", "sent-to-answered", "0.01", fast),
                series("sink", "sent-to-answered", "0.02", fast + slow),
                series("sink", "sent-to-answered", "+Inf", fast + slow),
                series("sink", "ready-to-slot", "0.01", fast + slow),
                series("sink", "ready-to-slot", "0.02", fast + slow),
                series("sink", "ready-to-slot", "+Inf", fast + slow),
                series("other", "sent-to-answered", "+Inf", 999),
                "kcscale_bulk_request_wait_seconds_total{connector=\"sink\",task=\"0\",wait=\"sent-to-answered\"} "
                        + (0.005 * fast + 0.015 * slow),
                "kcscale_bulk_room_wait_seconds_total{connector=\"sink\",task=\"0\"} " + room,
                "kcscale_bulk_slot_wait_seconds_total{connector=\"sink\",task=\"0\"} " + slot,
                "kafka_connect_sink_task_put_batch_avg_time_ms{connector=\"sink\",task=\"0\"} 3.0",
                "process_cpu_seconds_total 12.5",
                "");
    }

    private static String series(String connector, String wait, String le, long count) {
        return "kcscale_bulk_request_waits_total{connector=\"" + connector + "\",le=\"" + le + "\",task=\"0\",wait=\""
                + wait + "\"} " + (double) count;
    }

    @Test
    void theDifferenceOfTwoScrapesIsWhatHappenedBetweenThem() {
        RequestTraceScrape before = RequestTraceScrape.parse(page(100, 0, 1.0, 2.0), "sink");
        RequestTraceScrape after = RequestTraceScrape.parse(page(110, 10, 1.5, 5.0), "sink");

        RequestTraceScrape between = after.minus(before);

        assertEquals(20, between.requests("sent-to-answered"), "the other connector's requests are not these");
        // half the 20 within 10 ms, the other half in (10, 20] ms: the median at the first bucket's bound
        assertEquals(0.010, between.quantile("sent-to-answered", 0.5), 1e-9);
        assertEquals(0.0198, between.quantile("sent-to-answered", 0.99), 1e-9);
        assertEquals((0.05 + 0.15) / 20, between.mean("sent-to-answered"), 1e-9);
        assertEquals(0.5, between.roomSeconds(), 1e-9);
        assertEquals(3.0, between.slotSeconds(), 1e-9);
    }

    @Test
    void stretchesAddUpAndTheSummarySaysEachWaitInMsAndEachThreadsShareOfTheTime() {
        RequestTraceScrape first = RequestTraceScrape.parse(page(10, 0, 1.0, 1.0), "sink")
                .minus(RequestTraceScrape.parse(page(0, 0, 0.0, 0.0), "sink"));
        RequestTraceScrape second = RequestTraceScrape.parse(page(10, 10, 2.0, 2.0), "sink")
                .minus(RequestTraceScrape.parse(page(10, 0, 1.5, 1.0), "sink"));

        var summary = RequestTraceScrape.NONE.plus(first).plus(second).summary(10.0);

        assertEquals(20, summary.requests());
        assertEquals(10.0, summary.sentToAnswered().medianMs(), 1e-9);
        assertEquals(10.0, summary.sentToAnswered().meanMs(), 1e-9);
        assertEquals(0.15, summary.roomWaitShare(), 1e-9);
        assertEquals(0.2, summary.slotWaitShare(), 1e-9);
        assertNull(summary.slotToSent().medianMs(), "no series, no figure");
        assertEquals(5.0, summary.readyToSlot().medianMs(), 1e-9);
    }

    @Test
    void aPageWithoutTheConnectorsTraceIsSaidInOneLine() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> RequestTraceScrape.parse("process_cpu_seconds_total 12.5\n", "sink"));
        assertTrue(e.getMessage().contains("no kcscale_bulk_* series for sink"), e.getMessage());
    }
}
