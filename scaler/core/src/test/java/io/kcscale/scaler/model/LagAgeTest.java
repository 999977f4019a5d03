package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LagAgeTest {

    private static LagAge.Point at(long millis, long end) {
        return new LagAge.Point(millis, end);
    }

    @Test
    void aCommittedOffsetInsideTheHistoryIsInterpolatedBetweenTheTwoSamplesAroundIt() {
        // 100 records every 2 s; the record at offset 149 exists once the end offset reaches 150, halfway from 2 s to 4
        // s
        List<LagAge.Point> history = List.of(at(0, 0), at(2_000, 100), at(4_000, 200), at(6_000, 300));
        LagAge.Age age = LagAge.of(history, 149, 6_000).orElseThrow();
        assertEquals(3.0, age.seconds(), 1e-9);
        assertFalse(age.lowerBound());
    }

    @Test
    void aRecordAppendedBeforeTheHistoryBeganGivesALowerBound() {
        List<LagAge.Point> history = List.of(at(10_000, 500), at(12_000, 600));
        LagAge.Age age = LagAge.of(history, 400, 12_000).orElseThrow();
        assertEquals(2.0, age.seconds(), 1e-9);
        assertTrue(age.lowerBound());
    }

    @Test
    void noLagIsNoAge() {
        assertEquals(Optional.of(new LagAge.Age(0, false)), LagAge.of(List.of(at(0, 10), at(2_000, 20)), 20, 2_000));
        // committed past the end (the log was truncated under the group): nothing waits
        assertEquals(Optional.of(new LagAge.Age(0, false)), LagAge.of(List.of(at(0, 10)), 50, 0));
    }

    @Test
    void anEndOffsetThatWentBackStartsTheHistoryAgain() {
        // the topic was recreated at 4 s: offsets before it describe another log
        List<LagAge.Point> history = List.of(at(0, 900), at(2_000, 1_000), at(4_000, 10), at(6_000, 50));
        LagAge.Age inside = LagAge.of(history, 29, 6_000).orElseThrow();
        assertEquals(1.0, inside.seconds(), 1e-9);
        assertFalse(inside.lowerBound());
        LagAge.Age before = LagAge.of(history, 5, 6_000).orElseThrow();
        assertEquals(2.0, before.seconds(), 1e-9);
        assertTrue(before.lowerBound(), "offset 5 of the new log was appended before its first sample");
    }

    @Test
    void aFlatEndOffsetKeepsTheLastSampleBeforeTheRecordArrived() {
        // nothing appended from 0 s to 8 s, then four records by 10 s: offset 7 at a quarter of the way, 8.5 s
        List<LagAge.Point> history = List.of(at(0, 7), at(8_000, 7), at(10_000, 11));
        assertEquals(1.5, LagAge.of(history, 7, 10_000).orElseThrow().seconds(), 1e-9);
    }

    @Test
    void withoutSamplesTheAgeIsUnknown() {
        assertEquals(Optional.empty(), LagAge.of(List.of(), 0, 0));
    }
}
