package io.kcscale.lab.experiment;

import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.checks.Finding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The published sizing method, automated: fix the partitions; for each task count measure what the
 * tasks consume at full speed, then bisect the source rate between half of that and just above it for
 * the highest rate whose lag stays bounded ({@link LagBound}) with the source running.
 */
public final class Sweep {

    static final String TOPIC = "kcscale-sweep";
    static final double BRACKET_LOW = 0.5;
    static final double BRACKET_HIGH = 1.05;
    static final double RESOLUTION = 0.02;
    private static final String KEY_FIELD = "price";

    /**
     * What to sweep; {@code seed} seeds the source's data and the latency sample; every sink request waits
     * {@code sinkLatencyMs} (0: none), then {@code sinkSerialMs} under one shared lock (0: none); {@code preRunChecks}: run the scaler's checks first (a minute on a
     * loaded machine, which {@code validate --quick} cannot spare).
     */
    public record Plan(
            List<Integer> tasks,
            int partitions,
            SinkMode sinkMode,
            long seed,
            Timing timing,
            LagBound bound,
            int sinkLatencyMs,
            int sinkSerialMs,
            boolean preRunChecks) {

        public PipelineLayout layout() {
            return new PipelineLayout(TOPIC, partitions, 1, KEY_FIELD, sinkMode);
        }

        public String scenarioName() {
            return "sweep-" + sinkMode.flagValue();
        }
    }

    /**
     * One task count: its full-speed throughput and the bisection's trials.
     *
     * @param loadAverage the machine's load average when its trials ended
     */
    public record Row(int tasks, FullSpeedResult fullSpeed, RateSearch.Result<TrialResult> search, double loadAverage) {

        /** The highest sustained rate, records/s; 0 when no rate tried was. */
        public double sustainedRate() {
            return search.best().map(RateSearch.Tried::rate).orElse(0.0);
        }

        public Optional<TrialResult> sustained() {
            return search.best().map(RateSearch.Tried::outcome);
        }

        /** The lowest rate tried that the sink did not sustain. */
        public Optional<TrialResult> lowestFailure() {
            return search.lowestFailure().map(RateSearch.Tried::outcome);
        }
    }

    /** @param connectorConfigs the source's and sink's configs as run */
    public record Result(
            Plan plan, List<Finding> findings, List<Row> rows, Map<String, Map<String, String>> connectorConfigs) {

        public ScenarioResult scenario() {
            List<ScenarioResult.Point> points = rows.stream()
                    .map(r -> new ScenarioResult.Point(
                            r.tasks(),
                            r.sustained().map(t -> t.throughput().total()).orElse(0.0),
                            r.sustained().map(t -> t.throughput().perTask()).orElse(List.of()),
                            r.fullSpeed().workerCapacity()))
                    .toList();
            List<String> notes = rows.stream()
                    .filter(r -> r.fullSpeed().ranDry())
                    .map(r -> r.tasks() + " task(s): the full-speed backlog ran out, so that figure is a lower bound")
                    .toList();
            return new ScenarioResult(plan.scenarioName(), points, findings, notes);
        }
    }

    private final ExperimentPipeline pipeline;
    private final Plan plan;
    private final Consumer<String> progress;

    /**
     * One sustained rate's standard deviation, relative to full speed, from the search's steps alone: the rate lies
     * somewhere within the last step the trials left, as evenly in it as anywhere.
     */
    static double resolution(Timing timing) {
        return (BRACKET_HIGH - BRACKET_LOW) / Math.pow(2, timing.trials()) / Math.sqrt(12);
    }

    private Sweep(ExperimentPipeline pipeline, Plan plan, Consumer<String> progress) {
        this.pipeline = pipeline;
        this.plan = plan;
        this.progress = progress;
    }

    /** Starts a fresh stack in {@code dataDir}, sweeps, stops it. */
    public static Result run(Path home, Path dataDir, Plan plan, Consumer<String> progress) {
        try (LocalStack stack = ExperimentStack.start(
                        home,
                        dataDir,
                        plan.partitions(),
                        plan.sinkMode(),
                        plan.sinkLatencyMs(),
                        plan.sinkSerialMs(),
                        progress);
                ExperimentPipeline pipeline = new ExperimentPipeline(stack)) {
            return new Sweep(pipeline, plan, progress).sweep(dataDir.resolve("experiment-scaler"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Result sweep(Path scalerState) {
        int most = plan.tasks().stream().mapToInt(Integer::intValue).max().orElseThrow();
        pipeline.prepare(plan.layout(), plan.tasks().get(0), plan.seed());
        Map<String, Map<String, String>> configs = pipeline.connectorConfigs();
        List<Finding> findings =
                plan.preRunChecks() ? PreRunChecks.raised(pipeline, most, scalerState, progress) : List.of();
        FullSpeed fullSpeed =
                new FullSpeed(pipeline, plan.timing(), progress, new WorkerCapacityProbe(pipeline::taskPlacement));
        Trial trial = new Trial(
                pipeline,
                plan.timing(),
                plan.bound(),
                new LatencyProbe(pipeline.elasticsearch(), plan.timing().latencySamples(), plan.seed()));
        List<Row> rows = new ArrayList<>();
        double perTask = fullSpeed
                .warmUp(
                        plan.tasks().get(0),
                        FullSpeed.firstGuessPerTask(plan.sinkMode())
                                * plan.tasks().get(0),
                        WarmUp.SINGLE)
                .perTask();
        for (int tasks : plan.tasks()) {
            FullSpeedResult full = fullSpeed.measure(tasks, perTask * tasks);
            double capacity = full.throughput().total();
            if (capacity <= 0) {
                throw new IllegalStateException(
                        tasks + " sink task(s) consumed nothing from a backlog: see the worker's log in "
                                + pipeline.endpoints().dataDir().resolve("logs"));
            }
            perTask = capacity / tasks;
            // the trials start from an empty topic tail; draining what is left at the sink's speed could take minutes
            pipeline.skipBacklog();
            RateSearch search = new RateSearch(
                    BRACKET_LOW * capacity,
                    BRACKET_HIGH * capacity,
                    plan.timing().trials(),
                    RESOLUTION);
            RateSearch.Result<TrialResult> found = search.run(
                    rate -> {
                        TrialResult t = trial.run(tasks, rate);
                        progress.accept(String.format(
                                Locale.ROOT,
                                "%d task(s) at %.0f records/s: %s (%s)",
                                tasks,
                                rate,
                                t.sustained() ? "sustained" : "not sustained",
                                t.verdict().reason()));
                        return t;
                    },
                    TrialResult::sustained);
            rows.add(new Row(tasks, full, found, Machine.loadAverage()));
        }
        return new Result(plan, findings, List.copyOf(rows), configs);
    }
}
