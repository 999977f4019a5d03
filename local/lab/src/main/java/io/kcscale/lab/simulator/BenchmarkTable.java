package io.kcscale.lab.simulator;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The benchmark report as a table for people: one row per policy, then the baseline's setting and the goals. */
public final class BenchmarkTable {

    private BenchmarkTable() {}

    public static String render(BenchmarkReport r) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "autoscale benchmark (%s, seed %d); steps: %s%n",
                r.mode(),
                r.seed(),
                r.steps().stream()
                        .map(s -> String.format(
                                Locale.ROOT,
                                "%s at %.0f s (%.0f/s, target lag %.0f)",
                                s.name(),
                                s.atSeconds(),
                                s.ratePerSecond(),
                                s.targetLag()))
                        .collect(Collectors.joining(", "))));
        String format = "%-22s %-8s %-10s %-24s %-10s %-13s %-12s %s%n";
        out.append(String.format(
                Locale.ROOT,
                format,
                "POLICY",
                "ACTIONS",
                "PER STEP",
                "SECONDS TO STEADY",
                "PEAK LAG",
                "PEAK LATENCY",
                "OVER TARGET",
                "TASK-SECONDS"));
        for (PolicyOutcome o : r.policies().values()) {
            out.append(String.format(
                    Locale.ROOT,
                    format,
                    o.policy(),
                    o.actions().size(),
                    join(o.actionsPerStep()),
                    steadiness(o.secondsToSteady()),
                    String.format(Locale.ROOT, "%,d", o.peakLag()),
                    o.peakLatencySeconds() == null ? "-" : String.format(Locale.ROOT, "%.1f s", o.peakLatencySeconds()),
                    String.format(Locale.ROOT, "%.0f s", o.secondsOverTarget()),
                    String.format(Locale.ROOT, "%,.0f", o.taskSeconds())));
        }
        out.append(String.format(
                Locale.ROOT, "baseline lag threshold %,d records: %s%n", r.lagThreshold(), r.lagThresholdChoice()));
        BenchmarkReport.Goals g = r.goals();
        out.append(String.format(
                Locale.ROOT,
                "goals: at most one action per step %s; peak lag at most half the baseline's %s; "
                        + "no more task-seconds %s%n",
                yesNo(g.atMostOneActionPerStep()),
                yesNo(g.peakLagAtMostHalf()),
                yesNo(g.noMoreTaskSeconds())));
        return out.toString();
    }

    /** Every action of every policy, one line each. */
    public static String actions(BenchmarkReport r) {
        StringBuilder out = new StringBuilder();
        for (PolicyOutcome o : r.policies().values()) {
            for (ScalingAction a : o.actions()) {
                out.append(String.format(
                        Locale.ROOT,
                        "%-22s %7.1f s  %d -> %d  %s%n",
                        o.policy(),
                        a.atSeconds(),
                        a.fromTasks(),
                        a.toTasks(),
                        a.reason()));
            }
        }
        return out.toString();
    }

    private static String join(List<Integer> counts) {
        return counts.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static String steadiness(List<Double> seconds) {
        return seconds.stream()
                .map(s -> s == null ? "never" : String.format(Locale.ROOT, "%.0f", s))
                .collect(Collectors.joining(", "));
    }

    private static String yesNo(boolean met) {
        return met ? "met" : "MISSED";
    }
}
