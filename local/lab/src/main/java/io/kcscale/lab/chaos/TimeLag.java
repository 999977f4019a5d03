package io.kcscale.lab.chaos;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * How far behind the sink is, in seconds: the age of the oldest record it has not committed, from
 * when the topic's end passed each offset. Samples of the end older than the committed position are
 * dropped, so the history holds only the unconsumed stretch.
 */
final class TimeLag {

    private record Sample(long atMillis, long appended) {}

    private final Deque<Sample> appendedAt = new ArrayDeque<>();
    private double maxSeconds;

    /**
     * One reading: the topic held {@code appended} records and the sink had committed {@code committed} at
     * {@code atMillis}. Returns the lag then: now minus the time of the first sample whose end had gone past
     * the committed position, or 0 when nothing is pending.
     */
    double sample(long atMillis, long appended, long committed) {
        appendedAt.addLast(new Sample(atMillis, appended));
        // a sample whose end the sink has consumed dates nothing pending (the newest is kept all the same)
        while (appendedAt.size() > 1 && appendedAt.peekFirst().appended() <= committed) {
            appendedAt.removeFirst();
        }
        double lag =
                committed >= appended ? 0 : (atMillis - appendedAt.peekFirst().atMillis()) / 1000.0;
        maxSeconds = Math.max(maxSeconds, lag);
        return lag;
    }

    double maxSeconds() {
        return maxSeconds;
    }
}
