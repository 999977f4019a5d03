package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The age a stuck partition's history gives its oldest record, sample after sample, long past the span. */
class EndOffsetHistoryTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final long SAMPLE_MILLIS = 2_000;
    private static final double SPAN_SECONDS = EndOffsetHistory.SPAN_MILLIS / 1000.0;

    /**
     * 10 records/s for two minutes, then none for half an hour, the sink group stuck at offset 500 (appended when
     * the end offset passed it, at 50.1 s). Once the record is older than the span the age is a lower bound, never
     * below the span, and once the flat run is all that is left it is the time since the run's first point.
     */
    @Test
    void aStuckIdlePartitionsAgeKeepsGrowingFromTheFirstPointOfItsFlatRun() {
        EndOffsetHistory history = new EndOffsetHistory();
        long committed = 500;
        double appendedSeconds = 50.1;
        long lastAppendMillis = 120_000;
        long end = 0;
        LagAge.Age age = null;
        long now = 0;
        for (; now <= lastAppendMillis + 30 * 60_000L; now += SAMPLE_MILLIS) {
            end = Math.min(now, lastAppendMillis) / 100;
            history.add(now, Map.of(P0, end));
            age = LagAge.of(history.of(P0), committed, now).orElseThrow();
            if (end <= committed) {
                continue;
            }
            double trueSeconds = now / 1000.0 - appendedSeconds;
            assertTrue(
                    age.seconds() >= Math.min(trueSeconds, SPAN_SECONDS) - 1e-9,
                    "at " + now + " ms the age is " + age + ", the record has waited " + trueSeconds + " s");
        }
        long last = now - SAMPLE_MILLIS;
        assertEquals(new LagAge.Age((last - lastAppendMillis) / 1000.0, true), age);
        assertEquals(
                List.of(new LagAge.Point(lastAppendMillis, end), new LagAge.Point(last, end)),
                history.of(P0),
                "an idle partition still costs two points");
    }

    /**
     * One record every 15 minutes into a partition nobody consumes: the age never drops back below the span, and the
     * history holds the newest point before the span besides the two runs it spans.
     */
    @Test
    void aTrickleIntoAStuckPartitionNeverBringsItsAgeBelowTheSpan() {
        EndOffsetHistory history = new EndOffsetHistory();
        long appendEveryMillis = 15 * 60_000L;
        for (long now = 0; now <= 2 * 60 * 60_000L; now += SAMPLE_MILLIS) {
            long end = now / appendEveryMillis + 1;
            history.add(now, Map.of(P0, end));
            LagAge.Age age = LagAge.of(history.of(P0), 0, now).orElseThrow();
            assertTrue(
                    age.seconds() >= Math.min(now / 1000.0, SPAN_SECONDS),
                    "at " + now + " ms the age is " + age + ", the record has waited " + now / 1000.0 + " s");
            assertTrue(history.of(P0).size() <= 4, history.of(P0).toString());
        }
    }
}
