package io.kcscale.scaler.model;

import java.util.List;
import java.util.Optional;

/**
 * The age of a partition's oldest unconsumed record, read off the history of its end offset: the record at the
 * committed offset was appended when the end offset passed it, a moment interpolated between the two samples around
 * it. Exact to the samples' resolution when that moment lies inside the history; when the end offset had already
 * passed it at the oldest sample, the history's start is all that is known, and the age is a lower bound.
 */
public final class LagAge {

    private LagAge() {}

    /** A partition's end offset at one sample. */
    public record Point(long atMillis, long endOffset) {}

    /**
     * @param seconds    how long the oldest unconsumed record has waited
     * @param lowerBound it was appended before the history began: it has waited at least this long
     */
    public record Age(double seconds, boolean lowerBound) {}

    /**
     * @param history   the partition's end offsets, oldest first
     * @param committed the sink group's committed offset: the next record it consumes
     * @param nowMillis when the age is read (the newest sample's time)
     * @return empty without history
     */
    public static Optional<Age> of(List<Point> history, long committed, long nowMillis) {
        if (history.isEmpty()) {
            return Optional.empty();
        }
        // an end offset that went back means the topic was recreated or truncated: older points describe another log
        int start = 0;
        for (int i = 1; i < history.size(); i++) {
            if (history.get(i).endOffset() < history.get(i - 1).endOffset()) {
                start = i;
            }
        }
        if (committed >= history.get(history.size() - 1).endOffset()) {
            return Optional.of(new Age(0, false));
        }
        // the record at `committed` exists once the end offset reaches committed + 1
        long appended = committed + 1;
        for (int i = history.size() - 1; i > start; i--) {
            Point before = history.get(i - 1);
            Point after = history.get(i);
            if (before.endOffset() < appended && after.endOffset() >= appended) {
                double share = (double) (appended - before.endOffset()) / (after.endOffset() - before.endOffset());
                double atMillis = before.atMillis() + share * (after.atMillis() - before.atMillis());
                return Optional.of(new Age(Math.max(0, nowMillis - atMillis) / 1000.0, false));
            }
        }
        return Optional.of(new Age(Math.max(0, nowMillis - history.get(start).atMillis()) / 1000.0, true));
    }
}
