package io.kcscale.lab.experiment;

import io.kcscale.local.SinkMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code experiment validate}: one sweep over the fit and the held-out task counts (each measured the
 * same way, none knowing the prediction), then {@link HeldOut} compares the model fitted to the first
 * with what the second measured.
 */
public final class Validation {

    /** The remote-cluster regime: 14 ms per request, the field report's round trip (one per-record task: ~70 records/s). */
    public static final int DEFAULT_SINK_LATENCY_MS = 14;
    /**
     * Then one shared lock per request, 12 ms: a contended resource (one hot shard) that bends throughput towards
     * 1000 / 12 ≈ 83 records/s past a knee near three to four tasks, so that the law's contention, not a straight line,
     * is what the held-out counts test (a linear model misses six tasks by a third or more there).
     */
    public static final int DEFAULT_SINK_SERIAL_MS = 12;
    /**
     * Under {@code --quick}: shorter windows and holds than the sweep's quick timing, and one more bisection
     * trial, which halves the rate's resolution (the bracket spans 55% of full speed: 4 trials pin it to ~3%).
     */
    static final Timing QUICK = new Timing(
            Duration.ofSeconds(3), Duration.ofSeconds(8), Duration.ofSeconds(2), Duration.ofSeconds(8), 4, 100);

    static final Timing FULL = Timing.FULL.withTrials(6);

    /**
     * @param fit   task counts the model is fitted to, increasing
     * @param check   held-out task counts, increasing, none among {@code fit}
     * @param repeats how many times each held-out count is measured, each time afresh: two or more check its interval
     */
    public record Plan(
            List<Integer> fit,
            List<Integer> check,
            int partitions,
            long seed,
            Timing timing,
            int sinkLatencyMs,
            int sinkSerialMs,
            int repeats) {

        /** Enough re-measurements to check an interval; each costs one rate search of the count (minutes). */
        public static final int MOST_REPEATS = 20;

        public Plan {
            fit = List.copyOf(fit);
            check = List.copyOf(check);
            if (fit.isEmpty() || check.isEmpty()) {
                throw new IllegalArgumentException("--fit and --check each need at least one task count");
            }
            if (repeats < 1 || repeats > MOST_REPEATS) {
                throw new IllegalArgumentException("--repeat must be from 1 to " + MOST_REPEATS + ", got " + repeats);
            }
            for (int n : fit) {
                if (check.contains(n)) {
                    throw new IllegalArgumentException(
                            "--check " + n + " is also a --fit point: a held-out point must not be fitted");
                }
            }
        }

        /** Every count, fit and check, increasing, then the held-out counts' repeats: the sweep measures them in one pass. */
        List<Integer> all() {
            TreeSet<Integer> counts = new TreeSet<>(fit);
            counts.addAll(check);
            List<Integer> all = new ArrayList<>(counts);
            for (int r = 1; r < repeats; r++) {
                all.addAll(check);
            }
            return List.copyOf(all);
        }

        Sweep.Plan sweep() {
            return new Sweep.Plan(
                    all(),
                    partitions,
                    SinkMode.INDEX,
                    seed,
                    timing,
                    LagBound.DEFAULT,
                    sinkLatencyMs,
                    sinkSerialMs,
                    false);
        }
    }

    /**
     * The sweep as measured, the held-out comparison drawn from it, when it ended and on what machine.
     *
     * @param intervalChecks one per held-out count measured twice or more whose fit gives an interval
     */
    public record Result(
            Plan plan,
            Sweep.Result sweep,
            HeldOut.Report report,
            List<IntervalCheck.Result> intervalChecks,
            Instant recordedAt,
            Map<String, Object> machine) {}

    private Validation() {}

    public static Timing timing(boolean quick) {
        return quick ? QUICK : FULL;
    }

    /** Starts a fresh stack in {@code dataDir}, measures every count, stops it, and compares. */
    public static Result run(Path home, Path dataDir, Plan plan, Consumer<String> progress) {
        progress.accept(
                "fitting on " + plan.fit() + " task(s), checking " + plan.check() + ", every sink request waiting "
                        + plan.sinkLatencyMs() + " ms, then holding one shared lock " + plan.sinkSerialMs() + " ms");
        Sweep.Result sweep = Sweep.run(home, dataDir, plan.sweep(), progress);
        HeldOut.Report report = HeldOut.evaluate(measured(sweep, plan.fit()), measured(sweep, plan.check()));
        if (report.refusal() != null) {
            progress.accept("predict tasks refused the fit points: " + report.refusal());
        }
        report.points()
                .forEach(p -> progress.accept(
                        p.predicted() == null
                                ? String.format(
                                        Locale.ROOT,
                                        "%d task(s): no prediction, measured %.0f records/s",
                                        p.tasks(),
                                        p.measured())
                                : String.format(
                                        Locale.ROOT,
                                        "%d task(s): predicted %.0f, measured %.0f records/s (%+.1f%%)",
                                        p.tasks(),
                                        p.predicted(),
                                        p.measured(),
                                        p.errorPercent())));
        List<HeldOut.Measured> fit = measured(sweep, plan.fit());
        List<IntervalCheck.Result> checks = new ArrayList<>();
        for (int tasks : plan.check()) {
            List<Double> runs = measured(sweep, List.of(tasks)).stream()
                    .map(HeldOut.Measured::sustainedRate)
                    .toList();
            IntervalCheck.of(fit, tasks, runs, Sweep.resolution(plan.timing())).ifPresent(c -> {
                checks.add(c);
                progress.accept(c.describe());
            });
        }
        return new Result(plan, sweep, report, List.copyOf(checks), Instant.now(), Machine.describe());
    }

    private static List<HeldOut.Measured> measured(Sweep.Result sweep, List<Integer> counts) {
        return sweep.rows().stream()
                .filter(r -> counts.contains(r.tasks()))
                .map(r -> new HeldOut.Measured(r.tasks(), r.sustainedRate()))
                .toList();
    }
}
