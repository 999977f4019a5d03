package io.kcscale.lab.experiment;

import io.kcscale.scaler.chart.LineChart;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** {@code report.md} of the humps, its chart, and the summary the command prints. */
final class HumpsReport {

    static final String CHART = "humps.svg";

    private HumpsReport() {}

    /** Per scenario: its points (total and per task) and the findings raised before it ran. */
    static String summary(List<ScenarioResult> scenarios) {
        StringBuilder out = new StringBuilder();
        for (ScenarioResult s : scenarios) {
            out.append(s.name()).append('\n');
            out.append("  findings before the run:\n").append(FindingsText.lines(s.findings(), "    "));
            for (ScenarioResult.Point p : s.points()) {
                out.append(String.format(
                        Locale.ROOT,
                        "  %d task(s): %7.1f records/s   per task [%s]%n",
                        p.tasks(),
                        p.throughput(),
                        p.perTaskThroughput().stream()
                                .map(v -> String.format(Locale.ROOT, "%.1f", v))
                                .collect(Collectors.joining(", "))));
            }
            s.notes().forEach(n -> out.append("  note: ").append(n).append('\n'));
        }
        HumpsReading.lines(scenarios, Runtime.getRuntime().availableProcessors())
                .forEach(l -> out.append(l).append('\n'));
        return out.toString();
    }

    static String markdown(List<ScenarioResult> scenarios, Timing timing, boolean quick, String command, long seed) {
        WarmUp warmUp = Humps.warmUp(quick);
        StringBuilder md = new StringBuilder("# Speed humps: keys and shards\n\n");
        md.append("`")
                .append(command)
                .append("`; seed ")
                .append(seed)
                .append("; full configuration in `config.json`, the figures as")
                .append(" JSON in `")
                .append(HumpsOutput.JSON)
                .append("`.\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Each scenario runs on a topic (%d partitions) and an index of its own, with the per-record"
                        + " sink (polling %d records at a time) and one Connect worker. A point is the tasks' full-speed throughput: the"
                        + " sink drains a backlog with the source stopped; after a %.0f s warm-up, each task's committed offsets are read"
                        + " every %.2f s for at least %.0f s, and its rate runs from its first commit in that window to its last. Before"
                        + " the first scenario's first count is measured, its windows are repeated until two in a row agree within"
                        + " %.0f%% (the worker's JVM and Elasticsearch speed up for a minute or more after the start), at most %d times;"
                        + " the last of them counts. Task counts compared are measured in turn (keyed by side: %s) and each point is the median of its"
                        + " windows (the mean of the middle two of an even count), so that a machine speeding up or slowing down meanwhile"
                        + " shifts all counts alike and one window caught by other work does not move a point; the notes list every"
                        + " window. The shard scenarios run one after the other on indexes of their own, so their difference includes"
                        + " whatever the machine did meanwhile. Before a scenario runs, the scaler's checks judge it for its largest task"
                        + " count under %d records/s; listed are the findings at warning or worse.%n%n",
                Humps.PARTITIONS,
                ExperimentPipeline.INDEX_MODE_POLL_RECORDS,
                timing.warmup().toMillis() / 1000.0,
                Trial.SAMPLE_SECONDS,
                timing.window().toMillis() / 1000.0,
                100 * warmUp.tolerance(),
                warmUp.maxWindows(),
                Humps.SCENARIOS.get(0).tasks(quick).stream()
                        .map(String::valueOf)
                        .collect(Collectors.joining(", ")),
                (int) PreRunChecks.LOAD));
        md.append("| scenario | tasks | throughput (records/s) | per task (records/s) |\n|---|---:|---:|---|\n");
        for (ScenarioResult s : scenarios) {
            for (ScenarioResult.Point p : s.points()) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %d | %.1f | %s |%n",
                        s.name(),
                        p.tasks(),
                        p.throughput(),
                        p.perTaskThroughput().stream()
                                .map(v -> String.format(Locale.ROOT, "%.1f", v))
                                .collect(Collectors.joining(", "))));
            }
        }
        md.append("\n## What they show\n\n");
        HumpsReading.lines(scenarios, Runtime.getRuntime().availableProcessors())
                .forEach(l -> md.append("- ").append(l).append('\n'));
        md.append("\n## Findings before each run\n\n");
        for (ScenarioResult s : scenarios) {
            md.append("**")
                    .append(s.name())
                    .append("**\n\n")
                    .append(FindingsText.lines(s.findings(), "- "))
                    .append('\n');
            s.notes().forEach(n -> md.append("Note: ").append(n).append("\n\n"));
        }
        md.append("Chart: [`").append(CHART).append("`](").append(CHART).append(").\n\n");
        md.append(Machine.note());
        return md.toString();
    }

    static String chart(List<ScenarioResult> scenarios) {
        LineChart chart = new LineChart(
                        "Full-speed throughput per scenario (per-record sink, " + Humps.PARTITIONS + " partitions)",
                        "sink tasks",
                        "records/s")
                .wholeNumbersOnX();
        for (int i = 0; i < scenarios.size(); i++) {
            ScenarioResult s = scenarios.get(i);
            chart.add(new LineChart.Series(
                    s.name(),
                    Palette.color(i),
                    null,
                    LineChart.Shape.POINTS,
                    s.points().stream().mapToDouble(ScenarioResult.Point::tasks).toArray(),
                    s.points().stream()
                            .mapToDouble(ScenarioResult.Point::throughput)
                            .toArray()));
        }
        return chart.svg();
    }
}
