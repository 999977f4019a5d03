package io.kcscale.scaler.checks.keys;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import org.apache.datasketches.hll.HllSketch;

/**
 * Counts distinct values: exactly while they number at most {@code exactBound}, then by a
 * HyperLogLog sketch (Apache DataSketches, lgK 12: relative standard error about 1.6%), which has
 * seen every value from the start. Feed one kind of value (bytes or text) per counter.
 */
public final class DistinctCounter {

    /** 2^12 registers: about 1.6% relative standard error in 4 KB. */
    static final int LG_K = 12;
    /** Standard deviations of the reported bounds: about 95% confidence. */
    static final int BOUND_DEVIATIONS = 2;
    /** HyperLogLog ignores empty input, so an empty value is fed as this stand-in instead. */
    private static final long EMPTY_VALUE = 0x6b6373_656d707479L;

    private final int exactBound;
    private final HllSketch sketch = new HllSketch(LG_K);
    private Set<Object> exact = new HashSet<>();

    public DistinctCounter(int exactBound) {
        if (exactBound < 0) {
            throw new IllegalArgumentException("the exact bound must be 0 or more, got " + exactBound);
        }
        this.exactBound = exactBound;
    }

    public void add(byte[] value) {
        if (value.length == 0) {
            sketch.update(EMPTY_VALUE);
        } else {
            sketch.update(value);
        }
        remember(ByteBuffer.wrap(value));
    }

    public void add(String value) {
        if (value.isEmpty()) {
            sketch.update(EMPTY_VALUE);
        } else {
            sketch.update(value);
        }
        remember(value);
    }

    private void remember(Object value) {
        if (exact != null && exact.add(value) && exact.size() > exactBound) {
            exact = null; // past the bound: the sketch alone answers from here on
        }
    }

    public Distinct estimate() {
        if (exact != null) {
            return new Distinct(exact.size(), true, exact.size(), exact.size());
        }
        return new Distinct(
                Math.round(sketch.getEstimate()),
                false,
                (long) Math.floor(sketch.getLowerBound(BOUND_DEVIATIONS)),
                (long) Math.ceil(sketch.getUpperBound(BOUND_DEVIATIONS)));
    }

    /**
     * A distinct count: exact, or a HyperLogLog estimate with its ~95% bounds.
     */
    public record Distinct(long count, boolean exact, long lowerBound, long upperBound) {}
}
