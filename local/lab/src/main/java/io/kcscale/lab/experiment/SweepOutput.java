package io.kcscale.lab.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes a sweep's files into its run folder: results, report, charts, the scenario JSON and the full configuration. */
public final class SweepOutput {

    public static final String RESULTS = "results.csv";
    public static final String REPORT = "report.md";
    public static final String CONFIG = "config.json";
    public static final String SCENARIOS = "scenarios.json";

    private SweepOutput() {}

    /** @return the files written, by name */
    public static List<String> write(RunDirectory dir, Sweep.Result result, String command, boolean quick) {
        Sweep.Plan plan = result.plan();
        dir.write(RESULTS, ResultsCsv.write(result.rows()));
        dir.write(REPORT, SweepReport.markdown(result, command));
        Map<String, String> charts = SweepCharts.draw(result);
        charts.forEach(dir::write);
        dir.write(SCENARIOS, ScenariosJson.write(List.of(result.scenario())) + "\n");
        dir.writeJson(
                CONFIG,
                new RunConfig("sweep", command, plan.seed(), quick, plan.timing())
                        .put("tasks", plan.tasks())
                        .put("partitions", plan.partitions())
                        .put("sinkMode", plan.sinkMode().flagValue())
                        .put("sinkLatencyMs", plan.sinkLatencyMs())
                        .put("sinkSerialMs", plan.sinkSerialMs())
                        .put("topicAndIndex", Sweep.TOPIC)
                        .put("primaryShards", 1)
                        .put("keyField", plan.layout().keyField())
                        .put("bound", RunConfig.bound(plan.bound()))
                        .put(
                                "bisection",
                                Map.of(
                                        "bracketLowShareOfFullSpeed",
                                        Sweep.BRACKET_LOW,
                                        "bracketHighShareOfFullSpeed",
                                        Sweep.BRACKET_HIGH,
                                        "resolution",
                                        Sweep.RESOLUTION))
                        .put("preRunChecks", Map.of("loadRecordsPerSecond", PreRunChecks.LOAD))
                        .put("connectors", result.connectorConfigs())
                        .values());
        List<String> files = new ArrayList<>(List.of(RESULTS, REPORT));
        files.addAll(charts.keySet());
        files.addAll(List.of(SCENARIOS, CONFIG));
        return files;
    }

    /** The table to print: the report's. */
    public static String table(Sweep.Result result) {
        return SweepReport.table(result);
    }
}
