package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RateSearchTest {

    /** A sink that sustains anything up to {@code capacity}: the trial's outcome is the rate itself. */
    private static RateSearch.Result<Double> search(RateSearch s, double capacity) {
        return s.run(rate -> rate, rate -> rate <= capacity);
    }

    @Test
    void bisectionHalvesTheBracketEachTrial() {
        RateSearch.Result<Double> r = search(new RateSearch(500, 1050, 5, 0.0), 800);
        assertEquals(
                List.of(775.0, 913.0, 844.0, 810.0, 793.0),
                r.tried().stream().map(RateSearch.Tried::rate).toList());
        assertEquals(793, r.best().orElseThrow().rate());
        assertEquals(810, r.lowestFailure().orElseThrow().rate());
    }

    @Test
    void stopsOnceTheBracketIsNarrowEnough() {
        RateSearch.Result<Double> r = search(new RateSearch(500, 1050, 20, 0.02), 800);
        double lo = r.best().orElseThrow().rate();
        double hi = r.lowestFailure().orElseThrow().rate();
        assertTrue(hi - lo <= 0.02 * hi + 1, lo + " .. " + hi);
        assertTrue(r.tried().size() < 20);
    }

    @Test
    void whenNoTrialIsSustainedTheBottomOfTheBracketIsTried() {
        RateSearch.Result<Double> r = search(new RateSearch(500, 1050, 2, 0.0), 600);
        assertEquals(
                List.of(775.0, 638.0, 500.0),
                r.tried().stream().map(RateSearch.Tried::rate).toList());
        assertEquals(500, r.best().orElseThrow().rate());
    }

    @Test
    void belowTheBracketTheRateIsHalvedUntilOneHolds() {
        RateSearch.Result<Double> r = search(new RateSearch(500, 1050, 2, 0.0), 300);
        assertEquals(
                List.of(775.0, 638.0, 500.0, 250.0),
                r.tried().stream().map(RateSearch.Tried::rate).toList());
        assertEquals(250, r.best().orElseThrow().rate());
    }

    @Test
    void aSinkFarBelowTheBracketHasNoSustainedRate() {
        RateSearch.Result<Double> r = search(new RateSearch(500, 1050, 2, 0.0), 100);
        assertEquals(
                List.of(775.0, 638.0, 500.0, 250.0, 125.0),
                r.tried().stream().map(RateSearch.Tried::rate).toList());
        assertTrue(r.best().isEmpty());
        assertEquals(125, r.lowestFailure().orElseThrow().rate());
    }

    @Test
    void aboveTheBracketTheRateIsRaisedUntilOneFails() {
        RateSearch.Result<Double> r = search(new RateSearch(500, 1050, 2, 0.0), 1400);
        assertEquals(
                List.of(775.0, 913.0, 1050.0, 1575.0),
                r.tried().stream().map(RateSearch.Tried::rate).toList());
        assertEquals(1050, r.best().orElseThrow().rate());
        assertFalse(r.lowerBound());
    }

    @Test
    void aSinkFarAboveTheBracketGivesALowerBound() {
        RateSearch.Result<Double> r = search(new RateSearch(500, 1050, 2, 0.0), 10_000);
        assertEquals(
                List.of(775.0, 913.0, 1050.0, 1575.0, 2363.0),
                r.tried().stream().map(RateSearch.Tried::rate).toList());
        assertEquals(2363, r.best().orElseThrow().rate());
        assertTrue(r.lowerBound());
    }

    @Test
    void refusesAnEmptyBracket() {
        assertThrows(IllegalArgumentException.class, () -> new RateSearch(0, 100, 3, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateSearch(100, 100, 3, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateSearch(50, 100, 0, 0));
    }
}
