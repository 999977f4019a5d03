package io.kcscale.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalTime;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StatusLineCountersTest {

    @Test
    void ratesComeFromTheDeltaBetweenTwoSamples() {
        StatusLineCounters before = new StatusLineCounters(
                0,
                LocalTime.of(12, 0, 0),
                OptionalLong.of(1000),
                OptionalLong.of(900),
                OptionalLong.of(900),
                OptionalLong.of(100),
                1,
                1);
        StatusLineCounters now = new StatusLineCounters(
                2_000_000_000L,
                LocalTime.of(12, 0, 2),
                OptionalLong.of(1400),
                OptionalLong.of(1290),
                OptionalLong.of(1290),
                OptionalLong.of(110),
                3,
                3);
        assertEquals(
                "12:00:02  produced 200.0/s  indexed 195.0/s  lag 110  sink tasks 3/3 RUNNING", now.statusLine(before));
    }

    @Test
    void aSystemThatDidNotAnswerShowsAsUnknown() {
        StatusLineCounters before = new StatusLineCounters(
                0,
                LocalTime.NOON,
                OptionalLong.empty(),
                OptionalLong.of(5),
                OptionalLong.of(5),
                OptionalLong.empty(),
                -1,
                0);
        StatusLineCounters now = new StatusLineCounters(
                1_000_000_000L,
                LocalTime.NOON,
                OptionalLong.of(10),
                OptionalLong.empty(),
                OptionalLong.empty(),
                OptionalLong.empty(),
                -1,
                0);
        assertEquals("12:00:00  produced ?/s  indexed ?/s  lag ?  sink tasks ?", now.statusLine(before));
    }

    /** A fresh index: every index operation made one document. */
    private static StatusLineCounters at(double seconds, long produced, long indexed, long lag) {
        return new StatusLineCounters(
                (long) (seconds * 1e9),
                LocalTime.NOON,
                OptionalLong.of(produced),
                OptionalLong.of(indexed),
                OptionalLong.of(indexed),
                OptionalLong.of(lag),
                1,
                1);
    }

    @Test
    void aSinkKeepsUpWhenItIndexesWhatIsProducedWithLittleLeftToIndex() {
        assertTrue(at(4, 1800, 1790, 40).sinkKeptUp(at(0, 1000, 990, 30)), "200/s in, 200/s indexed, 10 to index");
        assertFalse(at(4, 1800, 1250, 800).sinkKeptUp(at(0, 1000, 990, 30)), "cold: a third of the rate indexed");
        assertFalse(
                at(4, 1800, 1200, 600).sinkKeptUp(at(0, 1000, 200, 800)), "catching up, the backlog not drained yet");
        assertTrue(at(4, 1000, 1000, 0).sinkKeptUp(at(0, 1000, 990, 10)), "the source stopped and all is indexed");
        assertTrue(
                at(4, 1800, 1790, 11_000).sinkKeptUp(at(0, 1000, 990, 10_200)),
                "commits once a minute: the committed lag is a minute of records, yet everything is indexed");
    }

    @Test
    void aSinkWithUnknownFiguresIsNotSaidToKeepUp() {
        StatusLineCounters before = at(0, 1000, 990, 30);
        StatusLineCounters noDocuments = new StatusLineCounters(
                4_000_000_000L,
                LocalTime.NOON,
                OptionalLong.of(1800),
                OptionalLong.of(1790),
                OptionalLong.empty(),
                OptionalLong.of(40),
                1,
                1);
        assertFalse(noDocuments.sinkKeptUp(before));
        assertFalse(before.sinkKeptUp(before), "no time between the readings");
    }
}
