package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleToLongFunction;
import org.junit.jupiter.api.Test;

class LagBoundTest {

    private static final LagBound BOUND = LagBound.DEFAULT;

    /** Samples every 0.25 s over {@code seconds}, the lag given by {@code lag(t)}. */
    private static List<LagSample> hold(double seconds, DoubleToLongFunction lag) {
        List<LagSample> samples = new ArrayList<>();
        for (double t = 0; t <= seconds + 1e-9; t += 0.25) {
            samples.add(new LagSample(t, lag.applyAsLong(t)));
        }
        return samples;
    }

    @Test
    void aFlatSawtoothOfOneSecondOfCommitsIsBounded() {
        // a sink that keeps up at 500/s commits once a second: lag climbs to ~500 and falls back
        LagBound.Verdict v = BOUND.judge(500, 500, hold(20, t -> Math.round(500 * (t % 1.0))));
        assertTrue(v.bounded(), v.reason());
        assertTrue(Math.abs(v.slopePerSecond()) < 25, "slope " + v.slopePerSecond());
    }

    @Test
    void lagGrowingFasterThanFivePercentOfTheRateIsNotBounded() {
        LagBound.Verdict v = BOUND.judge(1000, 1000, hold(20, t -> Math.round(60 * t)));
        assertFalse(v.bounded());
        assertEquals(60, v.slopePerSecond(), 1e-6);
        assertTrue(v.reason().startsWith("lag grew 60.0 records/s (6.0% of the rate)"), v.reason());
    }

    @Test
    void aFlatButHighLagIsAboveTheCap() {
        // 2 s × 100/s + 100 = 300 records allowed
        assertEquals(300, BOUND.cap(100));
        LagBound.Verdict v = BOUND.judge(100, 100, hold(10, t -> 400));
        assertFalse(v.bounded());
        assertTrue(v.reason().contains("above the cap of 300"), v.reason());
    }

    @Test
    void aSourceThatFellShortFailsWhateverTheLag() {
        LagBound.Verdict v = BOUND.judge(1000, 900, hold(10, t -> 0));
        assertFalse(v.bounded());
        assertTrue(v.reason().contains("delivered only 900 of 1000"), v.reason());
    }

    @Test
    void theFinalLagIsTheMeanOfTheLastTwoSeconds() {
        LagBound.Verdict v = BOUND.judge(100, 100, hold(10, t -> t >= 8 ? 200 : 0));
        assertEquals(200, v.finalLag(), 1e-9);
    }

    @Test
    void theDefinitionNamesEveryThreshold() {
        String d = BOUND.describe();
        assertTrue(
                d.contains("at most 5% of R")
                        && d.contains("last 2 s")
                        && d.contains("2 × R + 100")
                        && d.contains("95% of R"),
                d);
    }

    @Test
    void aHoldNeedsTwoSamples() {
        assertThrows(IllegalArgumentException.class, () -> BOUND.judge(100, 100, List.of(new LagSample(0, 0))));
    }
}
