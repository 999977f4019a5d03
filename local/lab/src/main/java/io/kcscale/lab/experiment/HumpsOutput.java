package io.kcscale.lab.experiment;

import java.util.List;
import java.util.Map;

/** Writes the humps' files into their run folder: the scenario JSON, report, chart and full configuration. */
public final class HumpsOutput {

    public static final String JSON = "humps.json";
    public static final String REPORT = "report.md";
    public static final String CONFIG = "config.json";

    private HumpsOutput() {}

    /** @return the files written, by name */
    public static List<String> write(
            RunDirectory dir, Humps.Result result, String command, long seed, boolean quick, Timing timing) {
        dir.write(JSON, ScenariosJson.write(result.scenarios()) + "\n");
        dir.write(REPORT, HumpsReport.markdown(result.scenarios(), timing, quick, command, seed));
        dir.write(HumpsReport.CHART, HumpsReport.chart(result.scenarios()));
        WarmUp warmUp = Humps.warmUp(quick);
        dir.writeJson(
                CONFIG,
                new RunConfig("humps", command, seed, quick, timing)
                        .put("partitions", Humps.PARTITIONS)
                        .put("sinkMode", Humps.SINK_MODE.flagValue())
                        .put("scenarios", Humps.SCENARIOS)
                        .put("warmUp", Map.of("toleranceShare", warmUp.tolerance(), "maxWindows", warmUp.maxWindows()))
                        .put("preRunChecks", Map.of("loadRecordsPerSecond", PreRunChecks.LOAD))
                        .put("connectors", result.connectorConfigs())
                        .values());
        return List.of(JSON, REPORT, HumpsReport.CHART, CONFIG);
    }

    /** What the command prints without --json. */
    public static String summary(Humps.Result result) {
        return HumpsReport.summary(result.scenarios());
    }
}
