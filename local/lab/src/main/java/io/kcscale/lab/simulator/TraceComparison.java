package io.kcscale.lab.simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Every rule over one trace shape and several seeds, and what each cost: actions (each one rebalance), the peak lag,
 * the peak age of the oldest unconsumed record, the seconds the Little's-law latency stood over the target, the
 * task-seconds, and the seconds consumption stood still for rebalances.
 *
 * @param timeScales each rule's time scale on this trace (1: as shipped)
 * @param rows       one per rule, ours first: its figures per seed and their mean
 */
public record TraceComparison(
        TraceShape shape,
        String mode,
        double targetLatencySeconds,
        List<Long> seeds,
        Map<String, Double> timeScales,
        List<Row> rows) {

    /** What one run cost. */
    public record Figures(
            double actions,
            double peakLag,
            Double peakAgeSeconds,
            double secondsOverTarget,
            double taskSeconds,
            double rebalanceSeconds) {

        public static Figures of(Timeline run, LoadTrace trace, double targetLatencySeconds, double windowSeconds) {
            PolicyOutcome o = PolicyOutcome.of(run, trace, targetLatencySeconds, windowSeconds);
            Double peakAge = run.points().stream()
                    .map(Timeline.Point::lagSeconds)
                    .filter(a -> a != null)
                    .max(Double::compare)
                    .orElse(null);
            double paused = run.actions().stream()
                    .mapToDouble(a -> a.pauseSeconds() == null ? 0 : a.pauseSeconds())
                    .sum();
            return new Figures(
                    run.actions().size(), o.peakLag(), peakAge, o.secondsOverTarget(), o.taskSeconds(), paused);
        }

        static Figures mean(List<Figures> all) {
            List<Double> ages = all.stream()
                    .map(Figures::peakAgeSeconds)
                    .filter(a -> a != null)
                    .toList();
            return new Figures(
                    mean(all, Figures::actions),
                    mean(all, Figures::peakLag),
                    ages.isEmpty()
                            ? null
                            : ages.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .average()
                                    .orElseThrow(),
                    mean(all, Figures::secondsOverTarget),
                    mean(all, Figures::taskSeconds),
                    mean(all, Figures::rebalanceSeconds));
        }

        private static double mean(List<Figures> all, ToDoubleFunction<Figures> f) {
            return all.stream().mapToDouble(f).average().orElse(Double.NaN);
        }
    }

    /** @param perSeed in the order of the comparison's seeds */
    public record Row(String rule, Figures mean, List<Figures> perSeed) {}

    /** The runs behind a comparison, each named {@code <trace>-seed<N>-<rule>}, with the comparison. */
    public record Outcome(TraceComparison comparison, Map<String, Timeline> runs) {}

    /** Runs every rule on the simulator over {@code shape} once per seed. */
    public static Outcome simulate(
            TraceShape shape, SimulationSettings base, BenchmarkPolicies policies, List<Long> seeds) {
        SimulationSettings pipeline = shape.pipeline(base);
        LoadTrace trace = shape.trace(pipeline.perTaskRate());
        Map<String, List<Figures>> byRule = new LinkedHashMap<>();
        Map<String, Timeline> runs = new LinkedHashMap<>();
        for (long seed : seeds) {
            SimulationSettings settings = pipeline.toBuilder().seed(seed).build();
            for (Timeline run : AutoscaleBenchmark.runs(trace, settings, policies)) {
                runs.put(shape.flagName() + "-seed" + seed + "-" + run.policy(), run);
                byRule.computeIfAbsent(run.policy(), k -> new ArrayList<>())
                        .add(Figures.of(run, trace, policies.targetLatencySeconds(), settings.windowSeconds()));
            }
        }
        return new Outcome(of(shape, "simulated", policies, seeds, trace, byRule), runs);
    }

    /** A comparison of runs already made: per rule, its figures in the order of {@code seeds}. */
    public static TraceComparison of(
            TraceShape shape,
            String mode,
            BenchmarkPolicies policies,
            List<Long> seeds,
            LoadTrace trace,
            Map<String, List<Figures>> byRule) {
        List<Row> rows = new ArrayList<>();
        byRule.forEach((rule, figures) -> rows.add(new Row(rule, Figures.mean(figures), List.copyOf(figures))));
        return new TraceComparison(
                shape,
                mode,
                policies.targetLatencySeconds(),
                List.copyOf(seeds),
                BenchmarkPolicies.timeScales(trace.durationSeconds()),
                rows);
    }

    public Row row(String rule) {
        return rows.stream()
                .filter(r -> r.rule().equals(rule))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no rule " + rule + " in the comparison"));
    }

    /** The comparison as a Markdown table of the means, with what it ran. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "trace %s (%s), %s, target %.1f s, seeds %s, means:%n%n",
                shape.flagName(),
                shape.description(),
                mode,
                targetLatencySeconds,
                seedsText()));
        out.append("| rule | actions | peak lag | peak age | over target | task-seconds | rebalance pause |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            Figures f = r.mean();
            out.append(String.format(
                    Locale.ROOT,
                    "| %s | %.1f | %,.0f | %s | %.0f s | %,.0f | %.1f s |%n",
                    r.rule(),
                    f.actions(),
                    f.peakLag(),
                    f.peakAgeSeconds() == null ? "-" : String.format(Locale.ROOT, "%.1f s", f.peakAgeSeconds()),
                    f.secondsOverTarget(),
                    f.taskSeconds(),
                    f.rebalanceSeconds()));
        }
        List<String> scaled = new ArrayList<>();
        timeScales.forEach((rule, s) -> {
            if (s < 1) {
                scaled.add(String.format(Locale.ROOT, "%s x%.3f", rule, s));
            }
        });
        out.append(String.format(
                Locale.ROOT,
                "%ntime constants scaled to fit the trace: %s%n",
                scaled.isEmpty() ? "none" : String.join(", ", scaled)));
        return out.toString();
    }

    private String seedsText() {
        if (seeds.size() > 1 && seeds.get(seeds.size() - 1) - seeds.get(0) == seeds.size() - 1) {
            return seeds.get(0) + "-" + seeds.get(seeds.size() - 1);
        }
        return seeds.stream()
                .map(String::valueOf)
                .reduce((a, b) -> a + ", " + b)
                .orElse("");
    }
}
