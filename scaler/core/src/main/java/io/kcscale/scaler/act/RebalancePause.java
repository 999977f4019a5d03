package io.kcscale.scaler.act;

import java.util.List;
import java.util.OptionalDouble;

/**
 * The pause a change caused: the longest stretch without sink progress that ends after the change
 * began, from a counter (index operations) read at short intervals. Pure.
 */
public final class RebalancePause {

    private RebalancePause() {}

    /** A reading of the progress counter. */
    public record Reading(long atMillis, long counter) {}

    /**
     * @param readings  oldest first, starting before the change
     * @param changeAt  when the change was sent
     * @return seconds, or empty when the counter never moved after the change (no load, or no recovery seen)
     */
    public static OptionalDouble seconds(List<Reading> readings, long changeAt) {
        if (readings.isEmpty()) {
            return OptionalDouble.empty();
        }
        long lastProgress = readings.get(0).atMillis();
        long longest = -1;
        for (int i = 1; i < readings.size(); i++) {
            Reading r = readings.get(i);
            if (r.counter() > readings.get(i - 1).counter()) {
                if (r.atMillis() > changeAt) {
                    longest = Math.max(longest, r.atMillis() - lastProgress);
                }
                lastProgress = r.atMillis();
            }
        }
        return longest < 0 ? OptionalDouble.empty() : OptionalDouble.of(longest / 1000.0);
    }
}
