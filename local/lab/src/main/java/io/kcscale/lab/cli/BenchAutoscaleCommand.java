package io.kcscale.lab.cli;

import io.kcscale.lab.bench.ExperimentResults;
import io.kcscale.lab.bench.LiveAutoscaleBenchmark;
import io.kcscale.lab.simulator.Assignor;
import io.kcscale.lab.simulator.AutoscaleBenchmark;
import io.kcscale.lab.simulator.BenchmarkPolicies;
import io.kcscale.lab.simulator.BenchmarkReport;
import io.kcscale.lab.simulator.BenchmarkTable;
import io.kcscale.lab.simulator.LoadTrace;
import io.kcscale.lab.simulator.SimulationSettings;
import io.kcscale.lab.simulator.Timeline;
import io.kcscale.lab.simulator.TraceComparison;
import io.kcscale.lab.simulator.TraceShape;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackStartException;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import io.kcscale.scaler.input.Flags;
import io.kcscale.scaler.input.InvalidInputException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "autoscale",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Run a load trace through kcscale's rule and the peers' (keda-hpa, druid-cost, kafka-pod-autoscaler,",
            "responsive, flink, as each ships) and compare them. Without --trace: the standard trace (1x one sink task's",
            "capacity, a step to 4x, back to 1x, then Poisson noise), per step: actions, seconds to steady, peak lag,",
            "peak Little's latency, seconds over the target, task-seconds. With --trace: one table per trace of the means",
            "over --seeds: actions, peak lag, peak age, seconds over the target, task-seconds, rebalance pause.",
            "--simulate: the simulator, in seconds. Without it: the real pipeline, a stack of its own on free ports",
            "whose sink writes through a delay (--sink-latency-ms), on a trace --time-scale as long.",
            "Each run writes its configuration, seed and results under --results-dir."
        })
final class BenchAutoscaleCommand implements Callable<Integer> {

    private static final List<String> SIMULATOR_ONLY = List.of(
            "--per-task-rate",
            "--sink-ceiling",
            "--rebalance-pause-seconds",
            "--key-cardinality",
            "--key-skew",
            "--assignor");
    private static final List<String> REAL_ONLY = List.of("--sink-latency-ms", "--time-scale", "--data-dir");
    private static final String ALL_TRACES = "all";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--simulate", description = "Run the simulator instead of the real pipeline.")
    boolean simulate;

    @Option(names = "--json", description = "Print the report as JSON instead of a table.")
    boolean json;

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "1",
            description = "Seeds keys, Poisson arrivals and the policies' clock phase (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--trace",
            paramLabel = "SHAPE",
            description = {
                "Compare on a trace shape: standard, step, ramp, diurnal, spike, hot-key, expensive-rebalance, or all",
                "(hot-key and expensive-rebalance with --simulate only)."
            })
    String trace;

    @Option(
            names = "--rules",
            paramLabel = "NAME,...",
            split = ",",
            description = {
                "The rules to run: some of kcscale, keda-hpa, druid-cost, kafka-pod-autoscaler, responsive, flink",
                "(default: all of them)."
            })
    List<String> rules;

    @Option(
            names = "--seeds",
            paramLabel = "A-B",
            description = "With --trace --simulate: the seeds to run and average (default: 1-5).")
    String seeds;

    @Option(
            names = "--target-latency-seconds",
            paramLabel = "S",
            defaultValue = "5",
            description = "The latency target both policies aim at (default: ${DEFAULT-VALUE}).")
    double targetLatencySeconds;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "20",
            description = "Partitions of the topic; also both policies' maxTasks (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--per-task-rate",
            paramLabel = "R",
            description = "Simulator: records/s one task writes (default: 2600, measured here).")
    Double perTaskRate;

    @Option(
            names = "--sink-ceiling",
            paramLabel = "R",
            description = "Simulator: records/s the sink absorbs in all (default: ten tasks' worth).")
    Double sinkCeiling;

    @Option(
            names = "--rebalance-pause-seconds",
            paramLabel = "S",
            description = "Simulator: consumption stops this long per change (default: 0.3, measured here).")
    Double rebalancePauseSeconds;

    @Option(
            names = "--key-cardinality",
            paramLabel = "K",
            description = "Simulator: distinct record keys (default: 1000, the local stack's prices).")
    Integer keyCardinality;

    @Option(
            names = "--key-skew",
            paramLabel = "S",
            description = "Simulator: Zipf exponent of key popularity (default: 0, uniform).")
    Double keySkew;

    @Option(
            names = "--assignor",
            paramLabel = "range|round-robin",
            description = "Simulator: how partitions spread over tasks (default: range).")
    String assignor;

    @Option(
            names = "--sink-latency-ms",
            paramLabel = "L",
            defaultValue = "5",
            description =
                    "Real: each sink request waits L ms, as against a remote cluster (default: ${DEFAULT-VALUE}; 0: none).")
    int sinkLatencyMs;

    @Option(
            names = "--time-scale",
            paramLabel = "F",
            defaultValue = "0.25",
            description = "Real: each phase lasts F times the standard trace's (default: ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Real: the benchmark stack's data, wiped first (default: data/bench-autoscale).")
    Path dataDir;

    @Option(
            names = "--results-dir",
            paramLabel = "DIR",
            description = "Where each run's directory goes (default: experiments/results, git-ignored).")
    Path resultsDir;

    /** What one run of the command produced: the report, its table, each run's timeline, and what repeats it. */
    private record Outcome(
            String mode, Object report, String table, Map<String, Timeline> runs, Map<String, Object> configuration) {

        static Outcome of(BenchmarkReport report, List<Timeline> runs, Map<String, Object> configuration) {
            Map<String, Timeline> named = new LinkedHashMap<>();
            runs.forEach(r -> named.put(r.policy(), r));
            return new Outcome(
                    report.mode(),
                    report,
                    BenchmarkTable.render(report) + BenchmarkTable.actions(report),
                    named,
                    configuration);
        }
    }

    @Override
    public Integer call() {
        String problem = flagProblem();
        if (problem != null) {
            System.err.println("kcscale: " + problem);
            return 2;
        }
        Outcome outcome;
        try {
            outcome = trace != null ? traces() : simulate ? simulated() : real();
        } catch (InvalidInputException e) {
            System.err.println("kcscale: " + e.describe(Flags::of));
            return 2;
        } catch (BadFlag e) {
            System.err.println("kcscale: " + e.getMessage());
            return 2;
        } catch (IllegalStateException | IllegalArgumentException | StackStartException e) {
            System.err.println("kcscale: the benchmark failed: " + e.getMessage());
            return 1;
        }
        Path written = ExperimentResults.write(
                resultsDir != null ? resultsDir : InstallLayout.toolkitHome().resolve("experiments/results"),
                outcome.configuration(),
                outcome.mode(),
                outcome.report(),
                outcome.runs(),
                outcome.table());
        System.out.print(json ? ExperimentResults.json(outcome.report()) + System.lineSeparator() : outcome.table());
        System.err.println("kcscale: configuration, seed and results in " + written);
        return 0;
    }

    private Outcome simulated() {
        SimulationSettings settings = settings();
        BenchmarkPolicies policies =
                policies(settings.perTaskRate(), Math.round(settings.sampleIntervalSeconds() * 1000));
        LoadTrace trace = LoadTrace.standard(settings.perTaskRate());
        List<Timeline> runs = AutoscaleBenchmark.runs(trace, settings, policies);
        BenchmarkReport report = BenchmarkReport.of(
                "simulated", seed, trace, policies, settings.perTaskRate(), runs, settings.windowSeconds());
        Map<String, Object> configuration = configuration("simulated", trace, policies);
        configuration.put("simulation", settings);
        return Outcome.of(report, runs, configuration);
    }

    /** One table per trace shape: the simulator over the seeds, or the real pipeline once. */
    private Outcome traces() {
        List<TraceShape> shapes = ALL_TRACES.equals(trace) ? List.of(TraceShape.values()) : List.of(shape(trace));
        if (simulate) {
            SimulationSettings settings = settings();
            BenchmarkPolicies policies =
                    policies(settings.perTaskRate(), Math.round(settings.sampleIntervalSeconds() * 1000));
            List<Long> seedList = seeds();
            List<TraceComparison> comparisons = new ArrayList<>();
            Map<String, Timeline> runs = new LinkedHashMap<>();
            for (TraceShape shape : shapes) {
                TraceComparison.Outcome o = TraceComparison.simulate(shape, settings, policies, seedList);
                comparisons.add(o.comparison());
                runs.putAll(o.runs());
            }
            Map<String, Object> configuration =
                    configuration("simulated", shapes.get(0).trace(settings.perTaskRate()), policies);
            configuration.put(
                    "traces", shapes.stream().map(TraceShape::flagName).toList());
            configuration.put("seeds", seedList);
            configuration.put("simulation", settings);
            return new Outcome("simulated", comparisons, render(comparisons), runs, configuration);
        }
        for (TraceShape shape : shapes) {
            if (shape.simulatorOnly()) {
                throw new BadFlag(
                        "--trace " + shape.flagName() + " changes the pipeline, not only the load: use --simulate");
            }
        }
        return realTraces(shapes);
    }

    private static String render(List<TraceComparison> comparisons) {
        StringBuilder out = new StringBuilder();
        comparisons.forEach(c -> out.append(c.render()).append(System.lineSeparator()));
        return out.toString();
    }

    private static TraceShape shape(String name) {
        try {
            return TraceShape.of(name);
        } catch (IllegalArgumentException e) {
            throw new BadFlag(e.getMessage() + " or " + ALL_TRACES);
        }
    }

    /** The seeds of {@code --seeds A-B}, or 1 to 5. */
    private List<Long> seeds() {
        String range = seeds == null ? "1-5" : seeds.trim();
        String[] ends = range.split("-", 2);
        try {
            long first = Long.parseLong(ends[0].trim());
            long last = ends.length == 2 ? Long.parseLong(ends[1].trim()) : first;
            if (first < 0 || last < first || last - first >= 100) {
                throw new BadFlag("--seeds must be a range A-B of at most 100 seeds from 0 up, got " + range);
            }
            List<Long> list = new ArrayList<>();
            for (long s = first; s <= last; s++) {
                list.add(s);
            }
            return list;
        } catch (NumberFormatException e) {
            throw new BadFlag("--seeds must be a range like 1-5, got " + range);
        }
    }

    private Outcome real() {
        return onRealStack(run -> {
            LoadTrace trace = LoadTrace.standard(run.perTask()).shortened(timeScale);
            List<Timeline> runs = run.policies().create(trace.durationSeconds()).stream()
                    .map(p -> run.live().run(p, trace))
                    .toList();
            BenchmarkReport report = BenchmarkReport.of(
                    "real",
                    seed,
                    trace,
                    run.policies(),
                    run.perTask(),
                    runs,
                    LiveAutoscaleBenchmark.WINDOW.toSeconds());
            return Outcome.of(report, runs, configuration("real", trace, run.policies()));
        });
    }

    /** Each trace once on the real pipeline, every rule after the other, a quarter as long as simulated by default. */
    private Outcome realTraces(List<TraceShape> shapes) {
        return onRealStack(run -> {
            List<TraceComparison> comparisons = new ArrayList<>();
            Map<String, Timeline> runs = new LinkedHashMap<>();
            for (TraceShape shape : shapes) {
                LoadTrace t = shape.trace(run.perTask()).shortened(timeScale);
                Map<String, List<TraceComparison.Figures>> byRule = new LinkedHashMap<>();
                for (var rule : run.policies().create(t.durationSeconds())) {
                    Timeline timeline = run.live().run(rule, t);
                    runs.put(shape.flagName() + "-" + rule.name(), timeline);
                    byRule.put(
                            rule.name(),
                            List.of(TraceComparison.Figures.of(
                                    timeline,
                                    t,
                                    run.policies().targetLatencySeconds(),
                                    LiveAutoscaleBenchmark.WINDOW.toSeconds())));
                }
                comparisons.add(TraceComparison.of(shape, "real", run.policies(), List.of(seed), t, byRule));
            }
            Map<String, Object> configuration =
                    configuration("real", shapes.get(0).trace(run.perTask()), run.policies());
            configuration.put(
                    "traces", shapes.stream().map(TraceShape::flagName).toList());
            return new Outcome("real", comparisons, render(comparisons), runs, configuration);
        });
    }

    /** The real pipeline a run needs: the stack, one task's calibrated rate, and the rules aimed as simulated. */
    private record RealStack(LiveAutoscaleBenchmark live, double perTask, BenchmarkPolicies policies) {}

    /** Starts the benchmark's stack, calibrates it, runs {@code body}, and records what the machine was doing. */
    private Outcome onRealStack(Function<RealStack, Outcome> body) {
        if (!(timeScale > 0 && timeScale <= 1)) {
            throw new BadFlag("--time-scale must be more than 0 and at most 1, got " + timeScale);
        }
        LiveAutoscaleBenchmark.Settings settings = liveSettings();
        // Ctrl-C must not leave the benchmark's stack running
        Thread stopStack =
                new Thread(() -> LocalStack.stopRecorded(settings.dataDir(), m -> System.err.println("kcscale: " + m)));
        Runtime.getRuntime().addShutdownHook(stopStack);
        double loadAtStart = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        try (LiveAutoscaleBenchmark live =
                LiveAutoscaleBenchmark.start(settings, m -> System.err.println("kcscale: " + m))) {
            double perTask = live.calibrate(1);
            Outcome outcome = body.apply(
                    new RealStack(live, perTask, policies(perTask, LiveAutoscaleBenchmark.SAMPLE_INTERVAL.toMillis())));
            // other work on the machine changes every measured rate: the load average says how much there was
            outcome.configuration()
                    .put(
                            "real",
                            Map.of(
                                    "partitions",
                                    partitions,
                                    "sinkLatencyMs",
                                    sinkLatencyMs,
                                    "timeScale",
                                    timeScale,
                                    "measuredPerTaskRate",
                                    perTask,
                                    "sampleIntervalSeconds",
                                    LiveAutoscaleBenchmark.SAMPLE_INTERVAL.toSeconds(),
                                    "windowSeconds",
                                    LiveAutoscaleBenchmark.WINDOW.toSeconds(),
                                    "loadAverageAtStart",
                                    loadAtStart,
                                    "loadAverageAtEnd",
                                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                                    "processors",
                                    Runtime.getRuntime().availableProcessors()));
            return outcome;
        } finally {
            Runtime.getRuntime().removeShutdownHook(stopStack);
        }
    }

    private LiveAutoscaleBenchmark.Settings liveSettings() {
        try {
            return new LiveAutoscaleBenchmark.Settings(
                    InstallLayout.toolkitHome(),
                    dataDir != null
                            ? dataDir.toAbsolutePath().normalize()
                            : InstallLayout.toolkitHome().resolve("data/bench-autoscale"),
                    partitions,
                    Duration.ofMillis(sinkLatencyMs),
                    seed);
        } catch (IllegalArgumentException e) {
            throw new BadFlag(e.getMessage());
        }
    }

    /** Ours evaluates on every new sample; both aim at the target with the partitions as their most tasks. */
    private BenchmarkPolicies policies(double perTask, long sampleIntervalMillis) {
        BenchmarkPolicies all =
                BenchmarkPolicies.forTarget(perTask, targetLatencySeconds, partitions, sampleIntervalMillis);
        return rules == null ? all : all.only(chosenRules());
    }

    /** {@code --rules} as given, each name without the spaces around it. */
    private List<String> chosenRules() {
        return rules.stream().map(String::strip).toList();
    }

    private SimulationSettings settings() {
        SimulationSettings.Builder b =
                SimulationSettings.builder().partitions(partitions).seed(seed);
        if (perTaskRate != null) {
            b.perTaskRate(perTaskRate).sinkCeiling(10 * perTaskRate);
        }
        if (sinkCeiling != null) {
            b.sinkCeiling(sinkCeiling);
        }
        if (rebalancePauseSeconds != null) {
            b.rebalancePauseSeconds(rebalancePauseSeconds);
        }
        if (keyCardinality != null) {
            b.keyCardinality(keyCardinality);
        }
        if (keySkew != null) {
            b.keySkew(keySkew);
        }
        if (assignor != null) {
            b.assignor(assignor(assignor));
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // the settings' messages start with the setting's name, which is the flag's in camel case
            String[] nameAndRest = e.getMessage().split(" ", 2);
            throw new BadFlag(Flags.of(nameAndRest[0]) + " " + nameAndRest[1]);
        }
    }

    private static Assignor assignor(String value) {
        try {
            return Assignor.valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new BadFlag("--assignor must be range or round-robin, got " + value);
        }
    }

    private Map<String, Object> configuration(String mode, LoadTrace trace, BenchmarkPolicies policies) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("mode", mode);
        c.put("seed", seed);
        c.put("command", TypedCommand.of(spec));
        c.put("trace", trace);
        c.put("policies", policies);
        c.put("rules", policies.rules());
        c.put("timeScales", BenchmarkPolicies.timeScales(trace.durationSeconds()));
        return c;
    }

    /** A flag given to the mode that does not use it (said, rather than silently ignored), or a bad target; null if none. */
    private String flagProblem() {
        if (!(targetLatencySeconds > 0 && Double.isFinite(targetLatencySeconds))) {
            return "--target-latency-seconds must be a positive number of seconds, got " + targetLatencySeconds;
        }
        if (rules != null && !ScalingRules.NAMES.containsAll(chosenRules())) {
            return "--rules takes some of " + String.join(",", ScalingRules.NAMES) + ", got " + String.join(",", rules);
        }
        if (seeds != null && (trace == null || !simulate)) {
            return "--seeds applies with --trace and --simulate only";
        }
        List<String> wrong = simulate ? REAL_ONLY : SIMULATOR_ONLY;
        for (String flag : wrong) {
            if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
                return flag
                        + (simulate
                                ? " applies to the real pipeline only, not with --simulate"
                                : " applies with --simulate only");
            }
        }
        return null;
    }

    /** A flag's value is wrong: exit 2 with the message. */
    private static final class BadFlag extends IllegalArgumentException {
        BadFlag(String message) {
            super(message);
        }
    }
}
