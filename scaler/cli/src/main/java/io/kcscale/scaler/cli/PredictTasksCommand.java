package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.Json;
import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.predict.MeasuredCapacity;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksChart;
import io.kcscale.scaler.predict.TasksRequest;
import io.kcscale.scaler.predict.TasksResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kcscale predict tasks}: sink tasks and partitions for a target rate. */
@Command(
        name = "tasks",
        mixinStandardHelpOptions = true,
        description = "Sink tasks and partitions a target rate needs, from a per-task rate or measured points.")
public final class PredictTasksCommand implements java.util.concurrent.Callable<Integer> {

    private static final String PREDICT = "/api/v1/predict/tasks";
    /** The scaler judges the checks for the tasks it plans, a key sample of up to 5 s among them, on a loaded host. */
    private static final java.time.Duration LIVE_TIMEOUT = java.time.Duration.ofSeconds(60);

    @Option(
            names = "--target-rate",
            required = true,
            paramLabel = "<records/s>",
            description = "Records per second the pipeline must sustain.")
    String targetRate;

    @Option(
            names = "--per-task-rate",
            paramLabel = "<records/s>",
            description = "Records per second one task sustains (or give --measurements).")
    String perTaskRate;

    @Option(
            names = "--measurements",
            paramLabel = "<file.csv>",
            description = "CSV of measured points: columns tasks and throughput (or sustainedRate), or the first"
                    + " two numeric columns. Three or more task counts fit the Universal Scalability Law.")
    Path measurements;

    @Option(
            names = "--measure",
            paramLabel = "<connector>",
            description = "Take the per-task rate live from the scaler's view of this sink connector; only a saturated"
                    + " pipeline's rate is a capacity (see --scaler-url).")
    String measure;

    @Option(
            names = "--connector",
            paramLabel = "<name>",
            description = "Ask the scaler (see --scaler-url) to size from this sink connector's per-task capacity,"
                    + " measured live from its tasks' busy time at any load, with its range and what limits the"
                    + " answer.")
    String connector;

    @Mixin
    ScalerConnectionOptions scaler = new ScalerConnectionOptions();

    @Option(
            names = "--utilization",
            paramLabel = "<share>",
            description = "Share of task capacity to plan for, in (0,1] (default: " + TaskPrediction.DEFAULT_UTILIZATION
                    + ").")
    String utilization;

    @Option(
            names = "--arrivals",
            paramLabel = "steady|poisson",
            description = "How records arrive (default: steady); poisson adds the burst tasks.")
    String arrivals;

    @Option(
            names = "--burst-window-seconds",
            paramLabel = "<seconds>",
            description = "With --arrivals poisson: the window whose arrivals must be absorbed (default: "
                    + TaskPrediction.DEFAULT_WINDOW_SECONDS + ").")
    String burstWindowSeconds;

    @Option(
            names = "--quantile",
            paramLabel = "<probability>",
            description = "With --arrivals poisson: the quantile of arrivals to absorb, in (0,1) (default: "
                    + TaskPrediction.DEFAULT_QUANTILE + ").")
    String quantile;

    @Option(
            names = "--lag",
            paramLabel = "<records>",
            description = "A consumer lag to convert into average latency (Little's law).")
    String lag;

    @Option(
            names = "--interval-margin",
            paramLabel = "<share>",
            description = "With --measurements: the share of the estimate each 90% interval is widened by on both"
                    + " sides, for where the law itself misses, from 0 to 1 (default: "
                    + TaskPrediction.DEFAULT_INTERVAL_MARGIN
                    + ", what experiment validate --repeat measured in the lab); 0 gives the bare bootstrap.")
    String intervalMargin;

    @Option(
            names = "--plot",
            paramLabel = "<file.svg>",
            description = "Also draw tasks needed against target rate into this SVG file.")
    Path plot;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (connector != null) {
            return live();
        }
        return output.print(
                () -> {
                    TasksRequest request = new TasksRequest(
                            Inputs.parse("targetRate", targetRate),
                            measure == null ? Inputs.parse("perTaskRate", perTaskRate) : measuredPerTaskRate(),
                            measurements == null ? null : MeasurementsCsv.read(measurements),
                            Inputs.parse("utilization", utilization),
                            arrivals,
                            Inputs.parse("burstWindowSeconds", burstWindowSeconds),
                            Inputs.parse("quantile", quantile),
                            Inputs.parse("lag", lag),
                            Inputs.parse("intervalMargin", intervalMargin),
                            null);
                    TasksResult result = TaskPrediction.predict(request);
                    if (plot != null) {
                        writePlot(TasksChart.svg(request));
                    }
                    return result;
                },
                PredictTasksCommand::text);
    }

    /**
     * {@code --connector}: the scaler sizes from the connector's live capacity; the answer printed as the offline one
     * is, with its live part. A refusal (an unknown capacity, a connector not observed) is the scaler's one line.
     */
    private int live() {
        return output.print(
                () -> {
                    if (perTaskRate != null || measurements != null || measure != null || plot != null) {
                        throw new InvalidInputException(
                                "connector",
                                "cannot be combined with {0}, {1}, --measure or --plot: the scaler measures the"
                                        + " capacity on the connector",
                                "perTaskRate",
                                "measurements");
                    }
                    TasksRequest request = new TasksRequest(
                            Inputs.parse("targetRate", targetRate),
                            null,
                            null,
                            Inputs.parse("utilization", utilization),
                            arrivals,
                            Inputs.parse("burstWindowSeconds", burstWindowSeconds),
                            Inputs.parse("quantile", quantile),
                            Inputs.parse("lag", lag),
                            Inputs.parse("intervalMargin", intervalMargin),
                            connector);
                    // the flags' own limits, named as flags, before the scaler names them as fields
                    Inputs.positive("targetRate", request.targetRate());
                    Inputs.utilization("utilization", request.utilization(), TaskPrediction.DEFAULT_UTILIZATION);
                    JsonNode answer;
                    try {
                        answer = scaler.client().post(PREDICT, request, LIVE_TIMEOUT);
                    } catch (ScalerApiClient.Failure e) {
                        throw new IOException(e.getMessage(), e);
                    }
                    return Json.MAPPER.treeToValue(answer, TasksResult.class);
                },
                PredictTasksCommand::text);
    }

    /** The live per-task rate of {@code --measure}'s connector, if it is saturated (else a field error). */
    private Double measuredPerTaskRate() {
        if (perTaskRate != null || measurements != null) {
            throw new InvalidInputException(
                    "measure",
                    "cannot be combined with {0} or {1}: give one source of the per-task rate",
                    "perTaskRate",
                    "measurements");
        }
        JsonNode s;
        try {
            s = scaler.client().get(ScalerApiClient.connectorPath(measure, ""));
        } catch (ScalerApiClient.Failure e) {
            throw new InvalidInputException("measure", "cannot be read from the scaler: " + e.getMessage());
        }
        int running = 0;
        for (JsonNode t : s.path("tasks")) {
            running += "RUNNING".equals(t.path("state").asText()) ? 1 : 0;
        }
        double rate = MeasuredCapacity.perTaskRate(
                measure,
                running,
                s.path("rates").path("appendPerSecond").asDouble(),
                s.path("rates").path("sinkPerSecond").asDouble(),
                s.path("lag").path("total").asLong());
        spec.commandLine()
                .getErr()
                .println("per-task rate " + Numbers.format(rate) + " records/s measured on " + measure
                        + " (saturated: lag " + s.path("lag").path("total").asLong() + ")");
        return rate;
    }

    private void writePlot(String svg) throws IOException {
        try {
            Files.writeString(plot, svg, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException("cannot write --plot " + plot + ": " + e, e);
        }
        // a status line, not part of the result: stdout stays the text or JSON alone
        spec.commandLine().getErr().println("chart written to " + plot);
    }

    private static TextReport text(TasksResult result) {
        TasksResult.Live live = result.live();
        TextReport report = new TextReport("Tasks for " + Numbers.format(result.targetRate()) + " records/s ("
                + (live != null
                        ? "linear scaling at " + live.connector() + "'s live capacity"
                        : result.usl() == null ? "linear scaling" : "Universal Scalability Law")
                + ", "
                + Numbers.format(result.perTaskRate()) + " records/s for one task)");
        report.row("minimum tasks", count(result.minimumTasks()), "to sustain the target");
        report.row(
                "recommended tasks",
                count(result.recommendedTasks()),
                "at " + Numbers.format(result.utilization() * 100) + "% utilization");
        TasksResult.Burst burst = result.burst();
        if (burst != null) {
            report.row(
                    "burst tasks",
                    count(result.burstTasks()),
                    "absorb " + Numbers.format(burst.arrivalsInWindow(), 0)
                            + " records in " + Numbers.format(burst.burstWindowSeconds()) + " s (Poisson p"
                            + Numbers.format(burst.quantile() * 100, 4) + ")");
        }
        report.row("partitions", count(result.partitions()), "at least the tasks");
        if (live != null) {
            String level = Numbers.format(live.level() * 100, 0) + "%";
            report.row(
                    "per-task capacity",
                    Numbers.format(live.perTaskCapacity().estimate()) + " records/s",
                    range(live.perTaskCapacity()) + ": the central " + level + " of " + live.samples()
                            + " readings over "
                            + Numbers.format(live.windowSeconds(), 0) + " s; " + live.tasksRunning()
                            + " task(s) running"
                            + (live.busyFraction() == null
                                    ? ""
                                    : ", " + Numbers.format(live.busyFraction() * 100, 0) + "% busy"));
            report.row(
                    "tasks interval",
                    Numbers.format(live.recommendedTasks().low()) + " to "
                            + Numbers.format(live.recommendedTasks().high()),
                    "over the capacity's range");
            report.row("sustained at " + result.recommendedTasks(), range(live.sustainedRate()), "over its range");
            report.row("limited by", live.limitedBy(), "see Limits");
        }
        if (result.lag() != null) {
            report.row(
                    "latency at lag " + Numbers.format(result.lag()),
                    Numbers.format(result.latencySecondsAtLag(), 3) + " s",
                    "average (Little's law)");
        }
        TasksResult.Usl usl = result.usl();
        if (usl != null) {
            report.row(
                    "USL fit",
                    "λ " + Numbers.format(usl.lambda()),
                    "σ " + Numbers.format(usl.sigma(), 4) + ", κ "
                            + Numbers.format(usl.kappa(), 6) + ", R² " + Numbers.format(usl.rSquared(), 5) + ", "
                            + usl.points() + " points");
            report.row(
                    "ceiling",
                    usl.ceilingRate() == null ? "none" : Numbers.format(usl.ceilingRate()) + " records/s",
                    usl.peakTasks() == null
                            ? "throughput never falls"
                            : "at " + usl.peakTasks() + " tasks; more tasks lose throughput");
        }
        TasksResult.Intervals intervals = result.intervals();
        if (intervals != null) {
            // a prediction interval: the fit's spread over its refits plus one run's noise, and the margin if any
            String how = "(" + Numbers.format(intervals.level() * 100) + "% of runs, " + intervals.refits() + " refits"
                    + (intervals.margin() > 0
                            ? ", widened " + Numbers.format(intervals.margin() * 100) + "% of the estimate"
                            : "")
                    + ")";
            if (intervals.sustainedRate() != null) {
                report.row("sustained at " + result.recommendedTasks(), range(intervals.sustainedRate()), how);
            }
            if (intervals.ceilingRate() != null) {
                report.row("ceiling interval", range(intervals.ceilingRate()), how);
            }
            TasksResult.TaskInterval tasks = intervals.recommendedTasks();
            report.row(
                    "tasks interval",
                    tasks.low() == null
                            ? "none reach it"
                            : Numbers.format(tasks.low()) + " to "
                                    + (tasks.high() == null ? "out of reach" : Numbers.format(tasks.high())),
                    "for the recommended rate");
        }
        TasksResult.Extrapolation extrapolation = result.extrapolation();
        if (extrapolation != null) {
            report.row(
                    "extrapolation",
                    Numbers.format(extrapolation.factor(), 1) + "x",
                    extrapolation.tasks() + " tasks, "
                            + extrapolation.points() + " points measured up to " + extrapolation.mostTasksMeasured()
                            + " tasks"
                            + (extrapolation.beyondLimit() ? ": an assumption, not a measurement" : ""));
        }
        TasksResult.MeasureNext next = result.measureNext();
        if (next != null) {
            report.row("measure next", next.tasks() + " tasks", "the interval straddles the answer: see Advice");
        }
        TasksResult.SinkGrowth growth = result.sinkGrowth();
        if (growth != null) {
            report.row(
                    "sink must grow",
                    Numbers.format(growth.factor()) + "x",
                    "+" + Numbers.format(growth.additionalRate()) + " records/s to reach "
                            + Numbers.format(growth.requiredRate()) + " records/s");
        }
        if (live != null) {
            report.list(
                    "Limits",
                    live.limits().stream()
                            .map(l -> l.factor() + (l.binding() ? " (binding)" : "") + ": " + l.detail())
                            .toList());
        }
        return report.list("Assumptions", result.assumptions()).list("Advice", result.advice());
    }

    /** "285 to 301 records/s", open above when some refits had no ceiling. */
    private static String range(TasksResult.Interval interval) {
        return Numbers.format(interval.low()) + " to "
                + (interval.high() == null ? "unbounded" : Numbers.format(interval.high()) + " records/s");
    }

    private static String count(Integer tasks) {
        return tasks == null ? "out of reach" : Numbers.format(tasks);
    }
}
