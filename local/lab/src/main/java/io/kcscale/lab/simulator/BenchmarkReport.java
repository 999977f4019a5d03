package io.kcscale.lab.simulator;

import io.kcscale.scaler.autoscale.rules.KedaHpaRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Both policies' outcomes on one trace, and whether ours met the goals against the baseline:
 * at most one action per load step, at most half the baseline's peak lag, no more task-seconds.
 *
 * @param mode         {@code simulated} or {@code real}
 * @param lagThreshold the baseline's threshold, with {@code lagThresholdChoice} saying how it was chosen
 */
public record BenchmarkReport(
        String mode,
        long seed,
        List<Step> steps,
        long lagThreshold,
        String lagThresholdChoice,
        Map<String, PolicyOutcome> policies,
        Goals goals) {

    public static final String OURS = "kcscale";
    public static final String BASELINE = KedaHpaRule.NAME;

    /** A load step: when it starts, the rate it offers, and the lag that rate allows under the target. */
    public record Step(String name, double atSeconds, double ratePerSecond, double targetLag) {}

    /** @param met all three */
    public record Goals(
            boolean atMostOneActionPerStep, boolean peakLagAtMostHalf, boolean noMoreTaskSeconds, boolean met) {
        static Goals of(boolean atMostOneActionPerStep, boolean peakLagAtMostHalf, boolean noMoreTaskSeconds) {
            return new Goals(
                    atMostOneActionPerStep,
                    peakLagAtMostHalf,
                    noMoreTaskSeconds,
                    atMostOneActionPerStep && peakLagAtMostHalf && noMoreTaskSeconds);
        }
    }

    public static BenchmarkReport of(
            String mode,
            long seed,
            LoadTrace trace,
            BenchmarkPolicies policies,
            double perTaskRate,
            List<Timeline> runs,
            double steadyWindowSeconds) {
        Map<String, PolicyOutcome> outcomes = new LinkedHashMap<>();
        for (Timeline run : runs) {
            outcomes.put(
                    run.policy(), PolicyOutcome.of(run, trace, policies.targetLatencySeconds(), steadyWindowSeconds));
        }
        List<Step> steps = new ArrayList<>();
        for (int i = 1; i < trace.phases().size(); i++) {
            LoadPhase p = trace.phases().get(i);
            steps.add(new Step(
                    p.name(),
                    trace.startOf(i),
                    p.ratePerSecond(),
                    policies.targetLatencySeconds() * p.ratePerSecond()));
        }
        String choice = String.format(
                Locale.ROOT,
                "the lag one task (%.0f records/s) drains within the %.1f s target",
                perTaskRate,
                policies.targetLatencySeconds());
        return new BenchmarkReport(
                mode,
                seed,
                steps,
                policies.lagThreshold(),
                choice,
                outcomes,
                goals(outcomes.get(OURS), outcomes.get(BASELINE)));
    }

    private static Goals goals(PolicyOutcome ours, PolicyOutcome baseline) {
        if (ours == null || baseline == null) {
            throw new IllegalArgumentException("the report compares " + OURS + " with " + BASELINE);
        }
        return Goals.of(
                ours.actionsPerStep().stream().allMatch(n -> n <= 1),
                ours.peakLag() <= baseline.peakLag() / 2.0,
                ours.taskSeconds() <= baseline.taskSeconds());
    }
}
