package io.kcscale.lab.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * How well one policy followed a trace: the figures the benchmark compares.
 *
 * <p>Steady after a load step means: from that moment to the next step, every sample's lag is within
 * the target (target latency × the offered rate, Little's law) and no action is taken, for at least one
 * observation window. {@code secondsToSteady} is the time from the step to that moment; null when the
 * policy never got there before the next step.
 *
 * @param actionsPerStep     actions taken during each phase after the first (one per load step)
 * @param peakLatencySeconds the highest Little's-law latency (lag / sink rate over the window) seen; null if none was known
 * @param secondsOverTarget  how long that latency stood above the target: from each sample over it to the next sample
 * @param taskSeconds        tasks × seconds over the whole run: what the capacity cost
 */
public record PolicyOutcome(
        String policy,
        List<ScalingAction> actions,
        List<Integer> actionsPerStep,
        List<Double> secondsToSteady,
        long peakLag,
        Double peakLatencySeconds,
        double secondsOverTarget,
        double taskSeconds) {

    public static PolicyOutcome of(
            Timeline run, LoadTrace trace, double targetLatencySeconds, double steadyWindowSeconds) {
        List<Integer> actionsPerStep = new ArrayList<>();
        List<Double> toSteady = new ArrayList<>();
        for (int step = 1; step < trace.phases().size(); step++) {
            double start = trace.startOf(step);
            double end = start + trace.phases().get(step).seconds();
            double targetLag = targetLatencySeconds * trace.phases().get(step).ratePerSecond();
            List<ScalingAction> inStep = run.actions().stream()
                    .filter(a -> a.atSeconds() >= start && a.atSeconds() < end)
                    .toList();
            actionsPerStep.add(inStep.size());
            double steadyFrom =
                    inStep.isEmpty() ? start : inStep.get(inStep.size() - 1).atSeconds();
            List<Timeline.Point> points = run.points();
            for (int i = 0; i < points.size(); i++) {
                Timeline.Point p = points.get(i);
                if (p.atSeconds() >= start && p.atSeconds() < end && p.lag() > targetLag) {
                    // steady can start no earlier than the next sample
                    steadyFrom = Math.max(
                            steadyFrom,
                            i + 1 < points.size()
                                    ? Math.min(end, points.get(i + 1).atSeconds())
                                    : end);
                }
            }
            toSteady.add(end - steadyFrom >= steadyWindowSeconds ? tenths(steadyFrom - start) : null);
        }
        long peakLag =
                run.points().stream().mapToLong(Timeline.Point::lag).max().orElse(0);
        Double peakLatency = run.points().stream()
                .map(Timeline.Point::latencySeconds)
                .filter(l -> l != null)
                .max(Double::compare)
                .orElse(null);
        return new PolicyOutcome(
                run.policy(),
                run.actions(),
                actionsPerStep,
                toSteady,
                peakLag,
                peakLatency == null ? null : tenths(peakLatency),
                tenths(secondsOver(run, targetLatencySeconds)),
                tenths(run.taskSeconds()));
    }

    private static double secondsOver(Timeline run, double targetLatencySeconds) {
        List<Timeline.Point> points = run.points();
        double total = 0;
        for (int i = 0; i < points.size(); i++) {
            Double latency = points.get(i).latencySeconds();
            if (latency != null && latency > targetLatencySeconds) {
                double until = i + 1 < points.size() ? points.get(i + 1).atSeconds() : run.durationSeconds();
                total += Math.max(0, until - points.get(i).atSeconds());
            }
        }
        return total;
    }

    /** Samples are 0.1 s apart at the finest: more digits would be noise. */
    private static double tenths(double seconds) {
        return Math.round(seconds * 10) / 10.0;
    }
}
