package io.kcscale.lab.simulator;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.autoscale.rules.KedaHpaRule;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The contenders: every rule {@link ScalingRules} knows, aimed at the same latency target with the same task bounds.
 * Ours runs the user's policy; the peers get the per-task rate an operator measured (the simulator's, or the real
 * run's calibration), and their time constants as shipped unless the trace is too short for them: a peer whose
 * longest time constant would not fit twice in the trace has all of its constants scaled down until it does.
 *
 * @param kcscaleIntervalMillis how often our policy evaluates (each peer keeps its own cadence)
 * @param rules                 the rules that run, in {@link ScalingRules#NAMES}' order
 */
public record BenchmarkPolicies(
        AutoscalePolicy kcscale, long kcscaleIntervalMillis, double perTaskRate, List<String> rules) {

    public BenchmarkPolicies {
        if (rules.isEmpty() || !ScalingRules.NAMES.containsAll(rules)) {
            throw new IllegalArgumentException(
                    "rules must be some of " + String.join(", ", ScalingRules.NAMES) + ", got " + rules);
        }
        Set<String> chosen = Set.copyOf(rules);
        rules = ScalingRules.NAMES.stream().filter(chosen::contains).toList();
        kcscale = kcscale.validated();
        if (kcscale.targetLatencySeconds() == null) {
            throw new IllegalArgumentException(
                    "the benchmark compares against a latency target: set targetLatencySeconds");
        }
        if (kcscaleIntervalMillis < 1) {
            throw new IllegalArgumentException(
                    "the evaluation interval must be positive, got " + kcscaleIntervalMillis + " ms");
        }
    }

    /** Ours with defaults but the target and bounds. */
    public static BenchmarkPolicies forTarget(
            double perTaskRate, double targetLatencySeconds, int maxTasks, long kcscaleIntervalMillis) {
        AutoscalePolicy ours =
                new AutoscalePolicy(1, maxTasks, targetLatencySeconds, null, null, null, null, null, false, null);
        return new BenchmarkPolicies(ours, kcscaleIntervalMillis, perTaskRate, ScalingRules.NAMES);
    }

    /** The same contenders, only {@code names} of them running. */
    public BenchmarkPolicies only(List<String> names) {
        return new BenchmarkPolicies(kcscale, kcscaleIntervalMillis, perTaskRate, names);
    }

    public double targetLatencySeconds() {
        return kcscale.targetLatencySeconds();
    }

    /** The KEDA baseline's threshold: the lag one task drains within the target. */
    public long lagThreshold() {
        return ScalingRules.lagThreshold(KedaHpaRule.NAME, kcscale, new ScalingRules.LabSettings(perTaskRate, 1));
    }

    /** How much faster than shipped a peer runs on a trace of {@code traceSeconds}: 1 when its constants fit twice. */
    public static double timeScale(String rule, double traceSeconds) {
        double longest = ScalingRules.longestTimeConstantSeconds(rule);
        return longest == 0 ? 1 : Math.min(1, traceSeconds / (2 * longest));
    }

    /** Each rule's time scale on a trace of {@code traceSeconds}, for the run's record. */
    public static Map<String, Double> timeScales(double traceSeconds) {
        Map<String, Double> scales = new LinkedHashMap<>();
        ScalingRules.NAMES.forEach(n -> scales.put(n, timeScale(n, traceSeconds)));
        return scales;
    }

    /** Fresh instances of the running rules for a trace of {@code traceSeconds}, in {@link ScalingRules#NAMES}' order. */
    public List<ScalingRule> create(double traceSeconds) {
        return rules.stream()
                .map(name -> ScalingRules.create(
                        name,
                        kcscale,
                        kcscaleIntervalMillis,
                        new ScalingRules.LabSettings(perTaskRate, timeScale(name, traceSeconds))))
                .toList();
    }

    /** Ours alone, as the policy would run it. */
    public ScalingRule ours() {
        return ScalingRules.create(ScalingRules.KCSCALE, kcscale, kcscaleIntervalMillis);
    }
}
