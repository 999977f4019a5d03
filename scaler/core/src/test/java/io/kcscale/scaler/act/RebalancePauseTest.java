package io.kcscale.scaler.act;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The longest stretch without progress that ends after the change, from counter readings. */
class RebalancePauseTest {

    private static RebalancePause.Reading at(long millis, long counter) {
        return new RebalancePause.Reading(millis, counter);
    }

    @Test
    void noReadingsMeasureNothing() {
        assertEquals(OptionalDouble.empty(), RebalancePause.seconds(List.of(), 0));
    }

    @Test
    void aCounterThatNeverMovesAfterTheChangeMeasuresNothing() {
        assertEquals(OptionalDouble.empty(), RebalancePause.seconds(List.of(at(0, 5), at(100, 5), at(200, 5)), 50));
        assertEquals(
                OptionalDouble.empty(),
                RebalancePause.seconds(List.of(at(0, 5), at(100, 8), at(200, 8)), 150),
                "progress before the change only");
    }

    @Test
    void thePauseRunsFromTheLastProgressBeforeItToTheFirstProgressAfter() {
        List<RebalancePause.Reading> readings =
                List.of(at(0, 0), at(100, 10), at(200, 10), at(300, 10), at(1600, 10), at(1700, 25), at(1800, 40));
        assertEquals(OptionalDouble.of(1.6), RebalancePause.seconds(readings, 150));
    }

    @Test
    void theLongestStretchAfterTheChangeCounts() {
        List<RebalancePause.Reading> readings =
                List.of(at(0, 0), at(500, 1), at(700, 1), at(900, 2), at(3000, 2), at(3100, 3));
        assertEquals(OptionalDouble.of(2.2), RebalancePause.seconds(readings, 600));
    }

    @Test
    void aStretchThatEndsBeforeTheChangeDoesNotCount() {
        List<RebalancePause.Reading> readings = List.of(at(0, 0), at(5000, 1), at(5100, 2), at(5200, 3));
        assertEquals(OptionalDouble.of(0.1), RebalancePause.seconds(readings, 5050));
    }

    @Test
    void aStretchFromTheFirstReadingCountsWhenNothingMovedBefore() {
        assertEquals(OptionalDouble.of(0.9), RebalancePause.seconds(List.of(at(0, 7), at(400, 7), at(900, 8)), 100));
    }
}
