package io.kcscale.scaler.input;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NumbersTest {

    @Test
    void groupsAndRoundsToTwoDecimals() {
        assertEquals("10,000", Numbers.format(10_000));
        assertEquals("178.57", Numbers.format(10_000 / 56.0));
        assertEquals("0", Numbers.format(0));
        assertEquals("2,147,483,647", Numbers.format(Integer.MAX_VALUE));
        assertEquals("∞", Numbers.format(Double.POSITIVE_INFINITY));
    }

    @Test
    void tooSmallOrTooLargeForDigitsIsScientific() {
        assertEquals("0.00123", Numbers.format(0.0012345));
        assertEquals("4.9E-324", Numbers.format(Double.MIN_VALUE));
        assertEquals("-1E-300", Numbers.format(-1e-300));
        assertEquals("999,999,999,999,999,900,000", Numbers.format(999_999_999_999_999_900_000.0));
        assertEquals("1E+21", Numbers.format(1e21));
        assertEquals("1.8E+308", Numbers.format(Double.MAX_VALUE));
    }
}
