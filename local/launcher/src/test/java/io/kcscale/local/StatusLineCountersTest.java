package io.kcscale.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalTime;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

class StatusLineCountersTest {

    @Test
    void ratesComeFromTheDeltaBetweenTwoSamples() {
        StatusLineCounters before = new StatusLineCounters(0, LocalTime.of(12, 0, 0), OptionalLong.of(1000), OptionalLong.of(900), OptionalLong.of(100), 1, 1);
        StatusLineCounters now = new StatusLineCounters(2_000_000_000L, LocalTime.of(12, 0, 2), OptionalLong.of(1400), OptionalLong.of(1290), OptionalLong.of(110), 3, 3);
        assertEquals("12:00:02  produced 200.0/s  indexed 195.0/s  lag 110  sink tasks 3/3 RUNNING", now.statusLine(before));
    }

    @Test
    void aSystemThatDidNotAnswerShowsAsUnknown() {
        StatusLineCounters before = new StatusLineCounters(0, LocalTime.NOON, OptionalLong.empty(), OptionalLong.of(5), OptionalLong.empty(), -1, 0);
        StatusLineCounters now = new StatusLineCounters(1_000_000_000L, LocalTime.NOON, OptionalLong.of(10), OptionalLong.empty(), OptionalLong.empty(), -1, 0);
        assertEquals("12:00:00  produced ?/s  indexed ?/s  lag ?  sink tasks ?", now.statusLine(before));
    }
}
