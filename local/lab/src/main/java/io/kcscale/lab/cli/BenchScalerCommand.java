package io.kcscale.lab.cli;

import io.kcscale.lab.bench.CostFit;
import io.kcscale.lab.bench.ScalerBenchResult;
import io.kcscale.lab.bench.ScalerBenchmark;
import io.kcscale.lab.experiment.Machine;
import io.kcscale.local.InstallLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
        name = "scaler",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "What the scaler costs as the pipeline grows, on a stack of its own: point after point adds sink",
            "connectors (Kafka's FileStreamSink; every third reads two or three topics) under a steady low load; per",
            "point the duration of one sampling round (p50, p99, and whether p99 fits the sampling interval), the",
            "scaler's CPU (% of one core) and heap after GC, read from its /metrics over a window, then",
            "GET /api/v1/connectors timed one request at a time, then its live heap after a full GC (jcmd GC.run).",
            "The CPU per round, the round's p50 and the live heap are fitted as",
            "base + per connector x connectors + per partition x partitions. A point the stack cannot set up or keep",
            "running ends the run there, said with why, the points before it kept (exit 1). Writes the result under",
            "--results-dir. The full run (1x50 to 500x25000) takes a quarter of an hour or more; --quick about two minutes."
        })
final class BenchScalerCommand implements Callable<Integer> {

    /** 200x5500 adds sinks of few partitions: without it partitions would grow with connectors and the fit could not tell them apart. */
    private static final List<String> FULL = List.of(
            "1x50", "10x500", "50x2500", "100x5000", "200x5500", "300x8000", "400x11000", "450x14000", "500x25000");

    private static final List<String> QUICK = List.of("1x50");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--quick",
            description = "Point 1x50, a 16 s window, 30 requests: a check that it works, not the growth table.")
    boolean quick;

    @Option(
            names = "--points",
            paramLabel = "CxP",
            split = ",",
            description =
                    "Connectors x partitions in all, growing; the connectors a point adds share the partitions it adds,"
                            + " at least 3 each (default: 1x50,10x500,50x2500,100x5000,200x5500,300x8000,400x11000,450x14000,500x25000).")
    List<String> points;

    @Option(
            names = "--window",
            paramLabel = "S",
            description = "Seconds each point is measured over (default: 60; 16 with --quick).")
    Integer windowSeconds;

    @Option(
            names = "--api-requests",
            paramLabel = "N",
            description = "GET /api/v1/connectors timed per point (default: 200; 30 with --quick).")
    Integer apiRequests;

    @Option(
            names = "--rate",
            paramLabel = "R",
            defaultValue = "100",
            description = "Records/s spread over every partition (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "The benchmark stack's data, wiped first (default: data/bench-scaler).")
    Path dataDir;

    @Mixin
    StackBenchOutput output;

    @Override
    public Integer call() {
        if (quick && points != null) {
            return usage("--quick sets its own points: give one or the other");
        }
        ScalerBenchmark.Settings settings;
        Path home = InstallLayout.toolkitHome();
        Path data = dataDir != null ? dataDir.toAbsolutePath().normalize() : home.resolve("data/bench-scaler");
        try {
            List<ScalerBenchmark.Point> parsed = new ArrayList<>();
            for (String p : points != null ? points : quick ? QUICK : FULL) {
                parsed.add(ScalerBenchmark.Point.parse(p));
            }
            settings = new ScalerBenchmark.Settings(
                    home,
                    data,
                    parsed,
                    Duration.ofSeconds(windowSeconds != null ? windowSeconds : quick ? 16 : 60),
                    apiRequests != null ? apiRequests : quick ? 30 : 200,
                    rate,
                    Duration.ofMinutes(quick ? 2 : 15));
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        ScalerBenchmark.Settings bench = settings;
        Optional<ScalerBenchResult> result =
                StackBenchOutput.run(data, progress -> ScalerBenchmark.run(bench, progress));
        if (result.isEmpty()) {
            return 1;
        }
        output.write(spec, home, "scaler.json", result.get(), configuration(settings), table(result.get()));
        return result.get().stoppedAt() == null ? 0 : 1;
    }

    private Map<String, Object> configuration(ScalerBenchmark.Settings settings) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("command", TypedCommand.of(spec));
        c.put("points", settings.points());
        c.put("windowSeconds", settings.window().toSeconds());
        c.put("apiRequests", settings.apiRequests());
        c.put("loadPerSecond", settings.loadPerSecond());
        c.put("machine", Machine.describe());
        return c;
    }

    static String table(ScalerBenchResult r) {
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "a sampling round every %.0f s; %.0f records/s over every partition; each point measured over %.0f s%n",
                r.sampleIntervalSeconds(),
                r.loadPerSecond(),
                r.windowSeconds()));
        t.append(String.format(
                Locale.ROOT,
                "%10s  %10s  %6s  %6s  %9s  %9s  %9s  %4s  %10s  %12s  %15s  %10s  %5s%n",
                "connectors",
                "partitions",
                "topics",
                "rounds",
                "round p50",
                "round p99",
                "mean (ms)",
                "fits",
                "CPU % core",
                "CPU ms/round",
                "heap MB",
                "API p99 ms",
                "load"));
        for (ScalerBenchResult.Point p : r.points()) {
            t.append(String.format(
                    Locale.ROOT,
                    "%10d  %,10d  %6d  %6d  %9.1f  %9.1f  %9.1f  %4s  %10.1f  %12.1f  %15s  %10.1f  %5.1f%n",
                    p.connectors(),
                    p.partitions(),
                    p.topics(),
                    p.rounds(),
                    p.roundP50Ms(),
                    p.roundP99Ms(),
                    p.roundMeanMs(),
                    p.withinInterval() ? "yes" : "NO",
                    p.cpuPercentOfCore(),
                    p.cpuMsPerRound(),
                    String.format(
                            Locale.ROOT,
                            "%s / %s / %.0f",
                            megabytes(p.heapUsedAfterGcMb()),
                            megabytes(p.heapLiveMb()),
                            p.heapMaxMb()),
                    p.apiP99Ms(),
                    p.loadAverage()));
        }
        t.append(
                        "round p50/p99 from the round histogram's buckets; heap: the most in use after a GC in the window / after a"
                                + " full GC (live) / -Xmx;")
                .append(System.lineSeparator())
                .append(String.format(
                        Locale.ROOT,
                        "load: the machine's load average on %d cores, every process of the stack included%n",
                        Runtime.getRuntime().availableProcessors()));
        if (!r.withinIntervalEveryPoint()) {
            t.append(String.format(
                    Locale.ROOT,
                    "a round's p99 did NOT fit the %.0f s sampling interval at every point (fits: NO)%n",
                    r.sampleIntervalSeconds()));
        }
        t.append(law("CPU per round", "ms", r.cpuMsPerRoundFit()))
                .append(law("round p50", "ms", r.roundP50MsFit()))
                .append(law("live heap", "MB", r.heapMbFit()));
        if (r.stoppedAt() != null) {
            t.append(String.format(
                    Locale.ROOT,
                    "stopped at %d connectors x %,d partitions: %s%n",
                    r.stoppedAt().connectors(),
                    r.stoppedAt().partitions(),
                    r.stoppedAt().reason()));
        }
        return t.toString();
    }

    private static String law(String what, String unit, CostFit fit) {
        if (fit == null) {
            return what + ": no fit (it needs 4 points, not all with the same partitions per connector)"
                    + System.lineSeparator();
        }
        return String.format(
                Locale.ROOT,
                "%s: %.1f %s + per connector %.3g %s + per partition %.3g %s (R^2 %.3f over %d points)%n",
                what,
                fit.base(),
                unit,
                fit.perConnector(),
                unit,
                fit.perPartition(),
                unit,
                fit.rSquared(),
                fit.points());
    }

    private static String megabytes(Double mb) {
        return mb == null ? "-" : String.format(Locale.ROOT, "%.0f", mb);
    }

    private static int usage(String problem) {
        System.err.println("kcscale: " + problem);
        return 2;
    }
}
