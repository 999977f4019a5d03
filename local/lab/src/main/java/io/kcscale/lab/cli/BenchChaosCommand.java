package io.kcscale.lab.cli;

import io.kcscale.lab.chaos.ChaosBenchmark;
import io.kcscale.lab.chaos.ChaosResult;
import io.kcscale.lab.chaos.ChaosSchedule;
import io.kcscale.lab.chaos.FaultOutcome;
import io.kcscale.lab.chaos.ScalerChaosBenchmark;
import io.kcscale.lab.chaos.ScalerChaosResult;
import io.kcscale.lab.chaos.ScalerChaosSchedule;
import io.kcscale.lab.experiment.Machine;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.SinkMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "The sink under faults, on a stack of its own (two Connect workers, the cooperative assignor, a steady",
            "load): on a seeded schedule, kill -9 of a worker and of Elasticsearch (each started again), a broker restart,",
            "scales 1 -> 3 -> 2 through the scaler and malformed records at known offsets. Then the source stops, the sink",
            "drains, and every offset of the topic is reconciled with the index's ids and the dead-letter topic.",
            "Exits 1 when a record was lost or duplicated, a malformed one missed the dead-letter topic, or the sink",
            "did not recover or drain in time. Writes the result, the schedule and the seed under --results-dir.",
            "",
            "With --scaler, the scaler under faults instead: three replicas, an autoscale policy and a load step; on a",
            "seeded schedule a replica (mostly the leader) is frozen past its lease, killed, restarted or cut from Kafka.",
            "Every write to Connect is checked against the lease in force, and the decision log is reconciled with the",
            "writes Connect took. Exits 1 when a decision was written twice, a replica wrote without the lease, a write",
            "is not accounted for, the policy was lost, or no replica autoscaled within 30 s of a disruption."
        })
final class BenchChaosCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--scaler", description = "Disrupt the scaler's replicas instead of the sink (see above).")
    boolean scaler;

    @Option(
            names = "--sink-mode",
            paramLabel = "index|bulk",
            defaultValue = "index",
            description = "How the sink writes (default: ${DEFAULT-VALUE}).")
    String sinkMode;

    @Option(
            names = "--minutes",
            paramLabel = "M",
            defaultValue = "10",
            description = "Minutes of load the faults fall in (default: ${DEFAULT-VALUE}).")
    double minutes;

    @Option(
            names = "--quick",
            description = {
                "One minute of faults at 200 records/s, 10 malformed records: a few minutes in all.",
                "With --scaler: one disruption of each kind in 100 s."
            })
    boolean quick;

    @Option(
            names = "--rate",
            paramLabel = "R",
            description = "Records/s the source offers (default: 2000; 200 with --quick).")
    Double rate;

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "1",
            description = "Seeds the schedule: order, times, worker, partitions (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "The benchmark stack's data, wiped first (default: data/bench-chaos).")
    Path dataDir;

    @Mixin
    StackBenchOutput output;

    @Override
    public Integer call() {
        if (quick && spec.commandLine().getParseResult().hasMatchedOption("--minutes")) {
            return usage("--quick sets its own minutes: give one or the other");
        }
        if (!(minutes > 0 && minutes <= 120)) {
            return usage("--minutes must be more than 0 and at most 120, got " + minutes);
        }
        if (scaler) {
            for (String sinkOnly : List.of("--sink-mode", "--rate")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(sinkOnly)) {
                    return usage(sinkOnly + " sets the sink's chaos; --scaler runs a load of its own");
                }
            }
            return scalerChaos();
        }
        double load = rate != null ? rate : quick ? 200 : 2000;
        if (!(load > 0 && Double.isFinite(load))) {
            return usage("--rate must be a positive number of records/s, got " + load);
        }
        SinkMode mode;
        try {
            mode = SinkMode.parse(sinkMode);
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        Path home = InstallLayout.toolkitHome();
        Path data = dataDir != null ? dataDir.toAbsolutePath().normalize() : home.resolve("data/bench-chaos");
        ChaosSchedule schedule = quick
                ? ChaosSchedule.create(seed, 60, ChaosBenchmark.WORKERS, 20, 2, 5)
                : ChaosSchedule.create(seed, minutes * 60, ChaosBenchmark.WORKERS, 20, 4, 25);
        ChaosBenchmark.Settings settings = new ChaosBenchmark.Settings(
                home, data, mode, load, Duration.ofSeconds(quick ? 120 : 180), Duration.ofSeconds(quick ? 150 : 300));
        Optional<ChaosResult> ran =
                StackBenchOutput.run(data, progress -> ChaosBenchmark.run(settings, schedule, progress));
        if (ran.isEmpty()) {
            return 1;
        }
        ChaosResult result = ran.get();
        output.write(spec, home, "chaos.json", result, configuration(schedule, settings), table(result));
        return result.passed() ? 0 : 1;
    }

    /** The scaler's replicas under faults: 12 disruptions in the default 10 minutes, 4 in 100 s with --quick. */
    private int scalerChaos() {
        Path home = InstallLayout.toolkitHome();
        Path data = dataDir != null ? dataDir.toAbsolutePath().normalize() : home.resolve("data/bench-chaos-scaler");
        double window = quick ? 100 : minutes * 60;
        ScalerChaosSchedule schedule = ScalerChaosSchedule.create(
                seed,
                window,
                quick ? 1 : Math.max(1, (int) Math.round(window / 200)),
                ScalerChaosBenchmark.leaseSeconds(),
                quick ? 0.3 : 1.0);
        ScalerChaosBenchmark.Settings settings = new ScalerChaosBenchmark.Settings(home, data, window);
        Optional<ScalerChaosResult> ran =
                StackBenchOutput.run(data, progress -> ScalerChaosBenchmark.run(settings, schedule, progress));
        if (ran.isEmpty()) {
            return 1;
        }
        ScalerChaosResult result = ran.get();
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", TypedCommand.of(spec));
        c.put("seed", seed);
        c.put("replicas", ScalerChaosBenchmark.REPLICAS);
        c.put("leaseSeconds", ScalerChaosBenchmark.leaseSeconds());
        c.put("schedule", schedule);
        c.put("machine", Machine.describe());
        output.write(spec, home, "chaos-scaler.json", result, c, scalerTable(result));
        return result.passed() ? 0 : 1;
    }

    private static String scalerTable(ScalerChaosResult r) {
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%d replicas, seed %d, %.0f s window: %d disruptions, %d takeovers, %.1f s without a leader;"
                        + " %d writes (Connect took %d) for %d decisions (%d recorded applied), %d written twice,"
                        + " %d unaccounted, %d by a replica without the lease%s; policy %s%n",
                r.replicas(),
                r.seed(),
                r.windowSeconds(),
                r.disruptions().size(),
                r.takeovers(),
                r.secondsWithoutLeader(),
                r.configWrites(),
                r.connectConfigWrites(),
                r.decisionsWritten(),
                r.appliedDecisions(),
                r.doubleWrites(),
                r.unaccountedWrites().size(),
                r.nonLeaderWrites().size(),
                r.writesBeforeLog() == 0 ? "" : ", " + r.writesBeforeLog() + " older than the log kept",
                r.policyKept() ? "kept" : "LOST"));
        t.append(String.format(
                Locale.ROOT,
                "%8s  %-38s  %-9s  %-8s  %8s  %s%n",
                "at (s)",
                "disruption",
                "replica",
                "role",
                "held (s)",
                "autoscaling again (s)"));
        for (ScalerChaosResult.Outcome o : r.disruptions()) {
            t.append(String.format(
                    Locale.ROOT,
                    "%8.1f  %-38s  %-9s  %-8s  %8.1f  %s%n",
                    o.atSeconds(),
                    o.disruption().description(),
                    o.replica(),
                    o.wasLeader() ? "leader" : "follower",
                    o.holdSeconds(),
                    o.secondsToLeader() == null ? "NOT WITHIN 60 s" : o.secondsToLeader()));
        }
        r.decisions().forEach(d -> t.append("decision at ").append(d).append(System.lineSeparator()));
        r.unaccountedWrites()
                .forEach(w -> t.append("unaccounted write: ").append(w).append(System.lineSeparator()));
        r.nonLeaderWrites()
                .forEach(w -> t.append("without the lease: ").append(w).append(System.lineSeparator()));
        t.append(String.format(Locale.ROOT, "%s; %.0f s in all%n", r.passed() ? "passed" : "FAILED", r.seconds()));
        return t.toString();
    }

    private Map<String, Object> configuration(ChaosSchedule schedule, ChaosBenchmark.Settings settings) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", TypedCommand.of(spec));
        c.put("seed", seed);
        c.put("sinkMode", settings.sinkMode().flagValue());
        c.put("loadPerSecond", settings.ratePerSecond());
        c.put("workers", ChaosBenchmark.WORKERS);
        c.put("recoveryTimeoutSeconds", settings.recoveryTimeout().toSeconds());
        c.put("drainTimeoutSeconds", settings.drainTimeout().toSeconds());
        c.put("schedule", schedule);
        c.put("machine", Machine.describe());
        return c;
    }

    private static String table(ChaosResult r) {
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%s sink, %.0f records/s, seed %d: %d records, %d indexed, %d lost, %d duplicated, %d pending, %d malformed (%d to the dead-letter topic)%n",
                r.sinkMode(),
                r.loadPerSecond(),
                r.seed(),
                r.records(),
                r.indexed(),
                r.lost(),
                r.duplicated(),
                r.pending(),
                r.malformed(),
                r.malformedToDeadLetter()));
        t.append(String.format(Locale.ROOT, "%8s  %-40s  %-14s  %s%n", "at (s)", "fault", "target", "recovery (s)"));
        for (FaultOutcome f : r.faults()) {
            t.append(String.format(
                    Locale.ROOT,
                    "%8.1f  %-40s  %-14s  %s%n",
                    f.atSeconds(),
                    f.fault().description(),
                    f.target(),
                    f.recoverySeconds() == null ? "NOT RECOVERED" : f.recoverySeconds()));
        }
        t.append(String.format(
                Locale.ROOT,
                "max lag %.1f s; %s; %.0f s in all%n",
                r.maxLagSeconds(),
                r.drained() ? "drained" : "NOT DRAINED",
                r.seconds()));
        if (!r.lostExamples().isEmpty()) {
            t.append("lost, first ones: ")
                    .append(String.join(", ", r.lostExamples()))
                    .append(System.lineSeparator());
        }
        return t.toString();
    }

    private static int usage(String problem) {
        System.err.println("kcscale: " + problem);
        return 2;
    }
}
