package io.kcscale.scaler.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collection;
import java.util.Locale;

/**
 * Where a partition's lag is heading, read from its task's commits, without a threshold. Declared best first: a
 * connector's verdict is its worst partition's.
 */
public enum LagVerdict {
    /** No lag, or its task's last commit consumed everything that existed a sample before it. */
    CAUGHT_UP,
    /** Its task makes progress and the task's lag did not rise from its commit before the last to the last. */
    CATCHING_UP,
    /** Its task makes progress, but the task's lag rose from its commit before the last to the last. */
    GROWING,
    /**
     * Lag, and its task is PAUSED, or committed nothing for the window plus one commit interval (a stuck task), or the
     * partition did not move for longer than its task needs to cycle through its partitions.
     */
    STALLED,
    /** No member of the sink group owns the partition: nothing consumes it. */
    STOPPED;

    /** The name in JSON, metrics, the CLI and the page: {@code caught-up}, {@code catching-up}, ... */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * One partition's verdict, read from its task's commits rather than from a fixed window: with commits every minute
     * (Connect's default) a window of 30 s sees most commits of a healthy sink not happen, and a saturated task, which
     * drains a few partitions at a time, leaves most of its partitions unmoved between two commits.
     *
     * @param owned           whether a member of the group owns it; null when the group's assignment is unknown
     * @param lag             its lag now
     * @param caughtUp        its task's last commit covered every record the partition held a sample before it
     * @param stalled         its task is PAUSED or committed nothing for its window plus one commit interval, or the
     *                        partition did not move for longer than its task needs to cycle through its partitions
     * @param judged          its task was watched long enough to say whether it makes progress
     * @param lagAtLastCommit its task's lag (over all its partitions: a busy task drains them in turns) when it last
     *                        committed, or null
     * @param lagAtCommitBefore its task's lag when it committed before that, or null
     * @return null when the window cannot tell yet
     */
    static LagVerdict of(
            Boolean owned,
            long lag,
            boolean caughtUp,
            boolean stalled,
            boolean judged,
            Long lagAtLastCommit,
            Long lagAtCommitBefore) {
        if (Boolean.FALSE.equals(owned)) {
            return STOPPED;
        }
        if (lag == 0 || caughtUp) {
            return CAUGHT_UP;
        }
        if (stalled) {
            return STALLED;
        }
        if (!judged || lagAtLastCommit == null || lagAtCommitBefore == null) {
            return null;
        }
        // from one commit to the next, not over the whole window: a sink resumed after a pause is catching up though
        // the
        // window still holds the pause's growth
        return lagAtLastCommit > lagAtCommitBefore ? GROWING : CATCHING_UP;
    }

    /** The worst of the verdicts, or null when there is none. */
    public static LagVerdict worst(Collection<LagVerdict> verdicts) {
        return verdicts.stream().filter(v -> v != null).max(Enum::compareTo).orElse(null);
    }
}
