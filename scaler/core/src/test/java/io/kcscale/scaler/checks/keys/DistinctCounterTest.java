package io.kcscale.scaler.checks.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DistinctCounterTest {

    /** HyperLogLog's relative standard error at lgK 12: 1.04 / sqrt(2^12). */
    private static final double RSE = 1.04 / Math.sqrt(1 << DistinctCounter.LG_K);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void exactUpToTheBoundThenAnEstimate() {
        DistinctCounter counter = new DistinctCounter(10);
        for (int i = 0; i < 10; i++) {
            counter.add(bytes("k" + i));
            counter.add(bytes("k" + i));
        }
        assertEquals(new DistinctCounter.Distinct(10, true, 10, 10), counter.estimate());
        counter.add(bytes("k10"));
        DistinctCounter.Distinct past = counter.estimate();
        assertFalse(past.exact());
        assertEquals(11, past.count(), "the sketch saw every value from the start, not only those past the bound");
        assertTrue(past.lowerBound() <= 11 && past.upperBound() >= 11, past.toString());
    }

    @Test
    void equalBytesInDifferentArraysAndTheEmptyValueCountOnce() {
        DistinctCounter counter = new DistinctCounter(100);
        counter.add(bytes("BUY"));
        counter.add(bytes("BUY"));
        counter.add(new byte[0]);
        counter.add(new byte[0]);
        assertEquals(2, counter.estimate().count());
        DistinctCounter text = new DistinctCounter(0);
        text.add("");
        text.add("");
        text.add("x");
        assertEquals(2, text.estimate().count(), "the sketch counts the empty value too (it would ignore empty input)");
    }

    @Test
    void aMillionKeysAreEstimatedWithinTheSketchsBound() {
        DistinctCounter counter = new DistinctCounter(10_000);
        for (int i = 0; i < 1_000_000; i++) {
            counter.add(bytes("key-" + i));
        }
        DistinctCounter.Distinct d = counter.estimate();
        double error = Math.abs(d.count() - 1_000_000) / 1e6;
        System.out.printf(
                "[measure] HyperLogLog on 1,000,000 keys: estimate %d (error %.2f%%, bounds %d..%d, RSE %.2f%%)%n",
                d.count(), error * 100, d.lowerBound(), d.upperBound(), RSE * 100);
        assertFalse(d.exact());
        assertTrue(
                d.lowerBound() <= 1_000_000 && 1_000_000 <= d.upperBound(),
                "the true count lies within the reported bounds: " + d);
        assertTrue(error <= 3 * RSE, "error " + error + " beyond 3 standard errors (" + 3 * RSE + ")");
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DistinctCounter(-1));
    }
}
