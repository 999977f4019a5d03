package io.kcscale.scaler.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collection;
import java.util.Locale;

/**
 * Where a partition's lag is heading, read from the sink group's commits and the lag over the window, without a
 * threshold. Declared best first: a connector's verdict is its worst partition's.
 */
public enum LagVerdict {
    /** No lag, or none older than the previous sample: the sink consumed everything that existed then. */
    CAUGHT_UP,
    /** The sink committed within the window and the lag did not rise since the previous sample. */
    CATCHING_UP,
    /** The sink committed within the window, but the lag rose since the previous sample. */
    GROWING,
    /** Lag, and the committed offset did not move over the window. */
    STALLED,
    /** No member of the sink group owns the partition: nothing consumes it. */
    STOPPED;

    /** The name in JSON, metrics, the CLI and the page: {@code caught-up}, {@code catching-up}, ... */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * One partition's verdict.
     *
     * @param owned           whether a member of the group owns it; null when the group's assignment is unknown
     * @param lag             its lag now
     * @param committed       its committed offset now
     * @param previousEnd     its end offset at the previous sample, or null without one
     * @param previousLag     its lag at the previous sample, or null without one
     * @param oldestCommitted its committed offset at the window's oldest sample, or null when the window holds one
     * @return null when the window cannot tell yet (one sample, lag above 0)
     */
    public static LagVerdict of(
            Boolean owned, long lag, long committed, Long previousEnd, Long previousLag, Long oldestCommitted) {
        if (Boolean.FALSE.equals(owned)) {
            return STOPPED;
        }
        if (lag == 0 || (previousEnd != null && committed >= previousEnd)) {
            return CAUGHT_UP;
        }
        if (previousLag == null || oldestCommitted == null) {
            return null;
        }
        if (committed == oldestCommitted) {
            return STALLED;
        }
        // the latest step, not the whole window: a sink resumed after a pause is catching up though the window still
        // holds the pause's growth
        return lag > previousLag ? GROWING : CATCHING_UP;
    }

    /** The worst of the verdicts, or null when there is none. */
    public static LagVerdict worst(Collection<LagVerdict> verdicts) {
        return verdicts.stream().filter(v -> v != null).max(Enum::compareTo).orElse(null);
    }
}
