package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    private final WarmUp rule = new WarmUp(0.15, 4);

    @Test
    void settlesOnceTwoWindowsInARowAgree() {
        // a CI run's windows at one task count: the climb ends between 716 and 773
        assertFalse(rule.settled(List.of()));
        assertFalse(rule.settled(List.of(296.0)));
        assertFalse(rule.settled(List.of(296.0, 467.0)));
        assertFalse(rule.settled(List.of(296.0, 467.0, 716.0)));
        assertTrue(rule.settled(List.of(296.0, 467.0, 716.0, 773.0)));
    }

    @Test
    void agreementIsAShareOfTheLargerWindowEitherWay() {
        assertTrue(rule.settled(List.of(100.0, 85.0)));
        assertTrue(rule.settled(List.of(85.0, 100.0)));
        assertFalse(rule.settled(List.of(100.0, 84.0)));
        assertFalse(rule.settled(List.of(84.0, 100.0)));
        assertFalse(rule.settled(List.of(0.0, 100.0)));
        assertTrue(rule.settled(List.of(0.0, 0.0)), "a sink that consumes nothing is as warm as it gets");
    }

    @Test
    void isOverWhenSettledOrOutOfWindows() {
        assertFalse(rule.over(List.of(100.0)));
        assertTrue(rule.over(List.of(50.0, 100.0, 98.0)));
        assertFalse(rule.over(List.of(50.0, 100.0, 150.0)));
        assertTrue(rule.over(List.of(50.0, 100.0, 150.0, 225.0)), "bounded: four windows at most");
        assertTrue(WarmUp.SINGLE.over(List.of(1.0)));
    }

    @Test
    void saysWhetherItSettled() {
        assertEquals(
                "warm-up at 2 task(s): windows 296.0, 467.0, 716.0, 773.0 records/s, only the last counted; settled (the last two"
                        + " within 15%)",
                rule.describe(2, List.of(296.0, 467.0, 716.0, 773.0)));
        assertEquals(
                "warm-up at 2 task(s): windows 100.0, 200.0, 300.0, 450.0 records/s, only the last counted; did NOT settle within"
                        + " 4 windows (no two in a row within 15%): the machine was still speeding up or too busy to measure steadily, so the"
                        + " figures below may drift",
                rule.describe(2, List.of(100.0, 200.0, 300.0, 450.0)));
    }

    @Test
    void refusesARuleThatCannotEnd() {
        assertThrows(IllegalArgumentException.class, () -> new WarmUp(0.1, 0));
        assertThrows(IllegalArgumentException.class, () -> new WarmUp(0, 3));
        assertThrows(IllegalArgumentException.class, () -> new WarmUp(1, 3));
    }
}
