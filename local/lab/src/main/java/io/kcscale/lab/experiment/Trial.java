package io.kcscale.lab.experiment;

import io.kcscale.local.Offsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Holds the source at one rate and judges whether the sink kept up: sets the rate and, once the
 * restarted source appends, lets it settle, samples the lag through the hold (ending early once the
 * lag is far past the cap), measures the sink's throughput per task and, for a sustained rate, the
 * end-to-end latency; then stops the source and lets the sink drain, so that every trial starts
 * from an empty topic tail.
 */
final class Trial {

    static final double SAMPLE_SECONDS = 0.25;
    /** Past this many times the cap the lag cannot come back within the hold: the trial ends. */
    static final int ABORT_FACTOR = 2;

    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);

    private final ExperimentPipeline pipeline;
    private final Timing timing;
    private final LagBound bound;
    private final LatencyProbe latency;

    Trial(ExperimentPipeline pipeline, Timing timing, LagBound bound, LatencyProbe latency) {
        this.pipeline = pipeline;
        this.timing = timing;
        this.bound = bound;
        this.latency = latency;
    }

    /** What a trial saw: every lag sample, the offsets where the hold began and ended, the commits in between. */
    private record Recording(
            List<LagSample> lag,
            double startMillis,
            Offsets holdStart,
            Offsets last,
            CommitTrace commits,
            boolean aborted) {

        double holdStartSeconds() {
            return (holdStart.atMillis() - startMillis) / 1000;
        }

        List<LagSample> hold() {
            return lag.stream().filter(s -> s.seconds() >= holdStartSeconds()).toList();
        }

        double holdSeconds() {
            return (last.atMillis() - holdStart.atMillis()) / 1000;
        }
    }

    TrialResult run(int tasks, double rate) {
        PipelineLayout layout = pipeline.layout();
        try (IndexClock clock = IndexClock.start(pipeline.elasticsearch(), layout.name())) {
            pipeline.source().at(rate);
            pipeline.source().awaitAppending();
            Recording r = record(tasks, rate);
            pipeline.source().stop();
            double delivered = (r.last().appended() - r.holdStart().appended()) / r.holdSeconds();
            LagBound.Verdict verdict = r.aborted()
                    ? new LagBound.Verdict(
                            false,
                            LagBound.slope(r.hold()),
                            r.last().lag(),
                            String.format(
                                    Locale.ROOT,
                                    "lag reached %d records, %d × the cap, %.1f s into the hold: stopped early",
                                    r.last().lag(),
                                    ABORT_FACTOR,
                                    r.holdSeconds()))
                    : bound.judge(rate, delivered, r.hold());
            Throughput throughput = r.commits().throughput();
            double meanLag =
                    r.hold().stream().mapToLong(LagSample::lag).average().orElse(0);
            Optional<Latency> measured = verdict.bounded()
                    ? latency.measure(
                            layout.name(),
                            layout.shards(),
                            clock.timeline(),
                            r.holdStart().atMillis(),
                            r.last().atMillis())
                    : Optional.empty();
            pipeline.awaitLagAtMost(bound.capFloor(), DRAIN_TIMEOUT);
            return new TrialResult(
                    rate,
                    delivered,
                    throughput,
                    verdict,
                    r.lag(),
                    r.holdStartSeconds(),
                    throughput.total() > 0 ? meanLag / throughput.total() : Double.NaN,
                    measured);
        }
    }

    /** Samples the offsets every {@link #SAMPLE_SECONDS} through the settle and the hold. */
    private Recording record(int tasks, double rate) {
        List<LagSample> samples = new ArrayList<>();
        double startMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        long settled = start + timing.settle().toNanos();
        long end = settled + timing.hold().toNanos();
        Offsets holdStart = null;
        CommitTrace commits = null;
        for (long tick = start; ; tick += (long) (SAMPLE_SECONDS * 1e9)) {
            Pause.until(tick);
            Offsets o = pipeline.offsets();
            samples.add(new LagSample((o.atMillis() - startMillis) / 1000, o.lag()));
            if (holdStart == null && System.nanoTime() >= settled) {
                holdStart = o;
                commits = new CommitTrace(pipeline.assignment(), tasks);
            }
            if (commits != null) {
                commits.add(o);
                boolean aborted = o.lag() > ABORT_FACTOR * bound.cap(rate);
                if (aborted || System.nanoTime() >= end) {
                    return new Recording(List.copyOf(samples), startMillis, holdStart, o, commits, aborted);
                }
            }
        }
    }
}
