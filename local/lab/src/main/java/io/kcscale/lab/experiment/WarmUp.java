package io.kcscale.lab.experiment;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * When the sink is warm: its full-speed windows climb for a minute or more after the stack starts (the
 * worker's JIT, Elasticsearch's caches; a CI run saw 296, 467, 716, 773 records/s in turn at the same
 * task count), and on a slower machine for longer, so a fixed number of uncounted windows is not enough.
 * Warm once two consecutive windows agree within {@code tolerance} of the larger; given up after
 * {@code maxWindows}. Pure.
 */
record WarmUp(double tolerance, int maxWindows) {

    /** One uncounted window, whatever it shows: the sweep's warm-up, bound by its duration budget. */
    static final WarmUp SINGLE = new WarmUp(0.1, 1);

    WarmUp {
        if (!(tolerance > 0 && tolerance < 1) || maxWindows < 1) {
            throw new IllegalArgumentException("a warm-up needs a tolerance in (0, 1) and at least one window, got "
                    + tolerance + " and " + maxWindows);
        }
    }

    /** Whether the last two of {@code windows} (records/s, in the order measured) agree. */
    boolean settled(List<Double> windows) {
        if (windows.size() < 2) {
            return false;
        }
        double a = windows.get(windows.size() - 2);
        double b = windows.get(windows.size() - 1);
        return Math.abs(a - b) <= tolerance * Math.max(a, b);
    }

    /** Whether to stop warming up: settled, or out of windows. */
    boolean over(List<Double> windows) {
        return settled(windows) || windows.size() >= maxWindows;
    }

    /** For the report: the windows, and whether they settled. */
    String describe(int tasks, List<Double> windows) {
        String each =
                windows.stream().map(w -> String.format(Locale.ROOT, "%.1f", w)).collect(Collectors.joining(", "));
        String verdict = settled(windows)
                ? String.format(Locale.ROOT, "settled (the last two within %.0f%%)", 100 * tolerance)
                : String.format(
                        Locale.ROOT,
                        "did NOT settle within %d windows (no two in a row within %.0f%%): the machine was"
                                + " still speeding up or too busy to measure steadily, so the figures below may drift",
                        maxWindows,
                        100 * tolerance);
        return "warm-up at " + tasks + " task(s): windows " + each + " records/s, only the last counted; " + verdict;
    }
}
