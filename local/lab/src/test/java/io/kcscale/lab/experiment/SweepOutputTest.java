package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.local.SinkMode;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import io.kcscale.scaler.checks.WorkerCapacityCheck;
import io.kcscale.scaler.checks.WorkerCpu;
import io.kcscale.scaler.cli.KcscaleCommand;
import io.kcscale.scaler.model.PipelineSnapshot;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sweep's files from a made-up result: what predict reads, the charts parse, the record of the run. */
class SweepOutputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static TrialResult trial(double rate, boolean sustained, double... perTask) {
        double total = 0;
        List<Double> tasks = new ArrayList<>();
        for (double t : perTask) {
            total += t;
            tasks.add(t);
        }
        List<LagSample> lag =
                List.of(new LagSample(0, 0), new LagSample(3, 40), new LagSample(13, sustained ? 60 : 900));
        return new TrialResult(
                rate,
                rate,
                new Throughput(total, tasks),
                new LagBound.Verdict(sustained, sustained ? 0.5 : 80, sustained ? 50 : 900, "made up"),
                lag,
                3,
                0.4,
                sustained ? Optional.of(new Latency(120, 480, 600)) : Optional.empty());
    }

    private static Sweep.Row row(int tasks, double full, double sustainedRate, double... perTask) {
        RateSearch.Tried<TrialResult> good =
                new RateSearch.Tried<>(sustainedRate, trial(sustainedRate, true, perTask), true);
        RateSearch.Tried<TrialResult> bad =
                new RateSearch.Tried<>(sustainedRate * 1.1, trial(sustainedRate * 1.1, false, perTask), false);
        return new Sweep.Row(
                tasks,
                new FullSpeedResult(new Throughput(full, List.of()), false, workerCapacity(tasks)),
                new RateSearch.Result<>(Optional.of(good), List.of(bad, good)),
                1.5);
    }

    /** One worker using 0.4 cores per task of 2, its host 30% busy per task: from 3 tasks its host is saturated (a warning). */
    private static WorkerCapacityProbe.Reading workerCapacity(int tasks) {
        List<WorkerCpu> cpu = List.of(new WorkerCpu("w", 0.4 * tasks, 2, Math.min(1, 0.3 * tasks)));
        List<PipelineSnapshot.Task> placement = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            placement.add(new PipelineSnapshot.Task(t, "RUNNING", "w", List.of(), Map.of(), null, null, null));
        }
        return new WorkerCapacityProbe.Reading(WorkerCapacityCheck.judge(placement, tasks + 1, cpu, null), cpu);
    }

    private static Sweep.Result result() {
        Sweep.Plan plan =
                new Sweep.Plan(List.of(1, 2, 3), 20, SinkMode.INDEX, 7, Timing.QUICK, LagBound.DEFAULT, 0, 0, true);
        return new Sweep.Result(
                plan,
                List.of(new Finding("index-shards", Severity.WARNING, "1 primary shard for 3 tasks", Map.of(), "")),
                List.of(row(1, 90, 80, 80), row(2, 170, 150, 76, 74), row(3, 240, 210, 71, 70, 69)),
                Map.of("stocks-datagen", Map.of("random.seed", "7")));
    }

    @Test
    void writesResultsThatPredictReadsChartsThatParseAndTheRunsConfiguration(@TempDir Path results) throws Exception {
        RunDirectory dir = RunDirectory.create(results);
        List<String> files = SweepOutput.write(dir, result(), "./kcscale experiment sweep --quick --seed 7", true);
        assertEquals(
                List.of(
                        "results.csv",
                        "report.md",
                        "throughput-vs-tasks.svg",
                        "per-task-rate-vs-tasks.svg",
                        "lag-over-time.svg",
                        "scenarios.json",
                        "config.json"),
                files);

        List<String> csv = Files.readAllLines(dir.path().resolve("results.csv"));
        assertEquals(ResultsCsv.HEADER, csv.get(0));
        assertEquals(
                "2,150.0,75.0,150.0,76.0;74.0,170.0,120.0,480.0,600,400.0,0.5,50.0,2,1.5,ok,0.80,0.60", csv.get(2));

        StringWriter out = new StringWriter();
        int exit = KcscaleCommand.newCommandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(new StringWriter()))
                .execute(
                        "predict",
                        "tasks",
                        "--measurements",
                        dir.path().resolve("results.csv").toString(),
                        "--target-rate",
                        "1000");
        assertEquals(0, exit, out.toString());

        for (String svg : List.of("throughput-vs-tasks.svg", "per-task-rate-vs-tasks.svg", "lag-over-time.svg")) {
            var document = DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(dir.path().resolve(svg).toFile());
            assertEquals("svg", document.getDocumentElement().getNodeName(), svg);
            String text = Files.readString(dir.path().resolve(svg));
            assertTrue(text.contains("records/s") || text.contains("records)"), svg + " names its unit");
        }
        assertTrue(Files.readString(dir.path().resolve("lag-over-time.svg"))
                .contains("3 task(s) at 231/s: not sustained"));

        JsonNode config = JSON.readTree(dir.path().resolve("config.json").toFile());
        assertEquals(7, config.path("seed").asLong());
        assertEquals(
                "./kcscale experiment sweep --quick --seed 7",
                config.path("command").asText());
        assertEquals(10.0, config.path("timing").path("holdSeconds").asDouble());
        assertTrue(config.path("bound").path("definition").asText().contains("least-squares slope"));
        assertEquals(
                "7",
                config.path("connectors")
                        .path("stocks-datagen")
                        .path("random.seed")
                        .asText());

        String report = Files.readString(dir.path().resolve("report.md"));
        assertTrue(
                report.contains(
                        "| 3 | 210 | 70 | 240 | 120 ms | 480 ms | 400 ms | 71, 70, 69 | 1.5 | warning: 1.20 of 2 cores, host 90% busy |"),
                report);
        assertTrue(
                report.contains(
                        "- 3 task(s): worker-capacity warning: 3 → 4 tasks: the added tasks would share the saturated host"
                                + " of worker w (process 1.20 of 2 cores, host 90% busy; from proc) (other processes: 0.60 cores); expect less than a task's worth"
                                + " each\n"),
                report);
        assertTrue(report.contains("index-shards warning: 1 primary shard for 3 tasks"), report);
    }

    @Test
    void theJsonHasExactlyTheScenarioShape() throws Exception {
        JsonNode root = JSON.readTree(ScenariosJson.write(List.of(result().scenario())));
        assertEquals(List.of("scenarios"), fieldNames(root));
        JsonNode scenario = root.path("scenarios").get(0);
        assertEquals(List.of("name", "points", "findings"), fieldNames(scenario));
        assertEquals("sweep-index", scenario.path("name").asText());
        JsonNode point = scenario.path("points").get(1);
        assertEquals(List.of("tasks", "throughput", "perTaskThroughput", "workerCapacity"), fieldNames(point));
        assertEquals("ok", point.path("workerCapacity").path("severity").asText());
        assertEquals(
                0.8,
                point.path("workerCapacity")
                        .path("evidence")
                        .path("workers")
                        .path("w")
                        .path("processCores")
                        .asDouble());
        assertEquals(
                0.6,
                point.path("workerCapacity")
                        .path("evidence")
                        .path("workers")
                        .path("w")
                        .path("hostBusy")
                        .asDouble());
        assertEquals(
                "warning",
                scenario.path("points")
                        .get(2)
                        .path("workerCapacity")
                        .path("severity")
                        .asText());
        assertEquals(2, point.path("tasks").asInt());
        assertEquals(150.0, point.path("throughput").asDouble());
        assertEquals(76.0, point.path("perTaskThroughput").get(0).asDouble());
        assertEquals("index-shards", scenario.path("findings").get(0).asText());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
