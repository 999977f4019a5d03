package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.Json;
import io.kcscale.scaler.input.Flags;
import io.kcscale.scaler.predict.KafkaRequest;
import io.kcscale.scaler.predict.LagThresholdRequest;
import io.kcscale.scaler.predict.ShardsRequest;
import io.kcscale.scaler.predict.TasksRequest;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class PredictCommandsTest {

    @Test
    void tasksForTenThousandAtSeventyPerTask() {
        CliRun run = CliRun.of("predict", "tasks", "--target-rate", "10000", "--per-task-rate", "70");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().matches("(?s).*minimum tasks\\s+143\\s.*"), run.out());
        assertTrue(run.out().matches("(?s).*recommended tasks\\s+179\\s.*"), run.out());
        assertTrue(run.out().contains("Assumptions:\n  - throughput scales linearly"), run.out());
    }

    @Test
    void tasksAsJson() throws IOException {
        JsonNode json = json(
                "predict",
                "tasks",
                "--target-rate",
                "10000",
                "--per-task-rate",
                "70",
                "--arrivals",
                "poisson",
                "--burst-window-seconds",
                "1",
                "--quantile",
                "0.99",
                "--lag",
                "3000",
                "--json");
        assertEquals(143, json.get("minimumTasks").asInt());
        assertEquals(179, json.get("recommendedTasks").asInt());
        assertEquals(147, json.get("burstTasks").asInt()); // the 99th percentile of Poisson(10,000) is 10,233
        assertEquals(179, json.get("partitions").asInt());
        assertEquals(0.3, json.get("latencySecondsAtLag").asDouble(), 1e-12);
        assertTrue(json.get("assumptions").size() >= 5);
    }

    @Test
    void tasksFromMeasurementsFitTheUsl(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(
                dir.resolve("results.csv"),
                "tasks,sustained rate,p99 ms\n1,70,15\n2,138,16\n3,200,18\n5,290,25\n8,350,40\n");
        JsonNode json = json("predict", "tasks", "--target-rate", "320", "--measurements", csv.toString(), "--json");
        assertEquals("usl", json.get("model").asText());
        assertEquals(5, json.get("usl").get("points").asInt());
        assertTrue(json.get("minimumTasks").asInt() > 5, "contention: linear would say 5");
        assertTrue(json.has("sinkGrowth"), "400/s recommended is above the ~355/s ceiling and its interval");
        assertFalse(json.has("recommendedTasks"));
    }

    @Test
    void theSweepOfThePerformancePageStraddlesTwoThousandFiveHundred(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("results.csv"), "tasks,throughput\n1,546\n2,1062\n3,1276\n5,1621\n");
        CliRun run = CliRun.of("predict", "tasks", "--measurements", csv.toString(), "--target-rate", "2500");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out().matches("(?s).*ceiling interval\\s+[0-9.,]+ to [0-9.,]+ records/s\\s+\\(90% of runs.*"),
                run.out());
        assertTrue(run.out().matches("(?s).*measure next\\s+7 tasks.*"), run.out());
        assertTrue(run.out().contains("undecided until 7 tasks are measured"), run.out());
        assertFalse(run.out().matches("(?s).*\\n  sink must grow\\s.*"), "no sink-growth row: " + run.out());
        assertFalse(run.out().contains("the sink, not the connector, must grow"), run.out());
        JsonNode json = json("predict", "tasks", "--measurements", csv.toString(), "--target-rate", "2500", "--json");
        assertFalse(json.has("sinkGrowth"));
        assertEquals(7, json.get("measureNext").get("tasks").asInt());
        assertEquals(0.9, json.get("intervals").get("level").asDouble(), 1e-12);
        assertTrue(json.get("intervals").get("ceilingRate").get("high").asDouble() >= 3125, json.toString());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "|0.04|(90% of runs, 400 refits, widened 4% of the estimate)",
                "0.075|0.075|(90% of runs, 400 refits, widened 7.5% of the estimate)",
                "0|0|(90% of runs, 400 refits)"
            })
    void theIntervalMarginWidensTheIntervalsAndTheirLinesSayBy(
            String flag, double margin, String how, @TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("results.csv"), "tasks,throughput\n1,546\n2,1062\n3,1276\n5,1621\n");
        String[] args = {"predict", "tasks", "--measurements", csv.toString(), "--target-rate", "1300"};
        if (flag != null) {
            args = append(args, "--interval-margin", flag);
        }
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .matches("(?s).*\\n  sustained at \\d+ +[0-9.,]+ to [0-9.,]+ records/s  "
                                + java.util.regex.Pattern.quote(how) + "\\n.*"),
                run.out());
        assertTrue(
                run.out()
                        .matches("(?s).*\\n  ceiling interval +[0-9.,]+ to [0-9.,]+ records/s  "
                                + java.util.regex.Pattern.quote(how) + "\\n.*"),
                run.out());
        JsonNode json = json(append(args, "--json"));
        assertEquals(margin, json.get("intervals").get("margin").asDouble(), 1e-12);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--measurements|4|--interval-margin must be a share from 0 to 1 (0.04 is 4%), got 4",
                "--measurements|-0.01|--interval-margin must be a share from 0 to 1 (0.04 is 4%), got -0.01",
                "--measurements|4%|--interval-margin must be a number, got '4%'",
                "--per-task-rate|0.04|--interval-margin applies only with --measurements: intervals come from measured"
                        + " points"
            })
    void aBadIntervalMarginIsRefusedAsItsFlag(String source, String margin, String message, @TempDir Path dir)
            throws IOException {
        Path csv = Files.writeString(dir.resolve("results.csv"), "tasks,throughput\n1,546\n2,1062\n3,1276\n5,1621\n");
        CliRun run = CliRun.of(
                "predict",
                "tasks",
                "--target-rate",
                "1300",
                source,
                source.equals("--measurements") ? csv.toString() : "70",
                "--interval-margin",
                margin);
        assertEquals(2, run.exitCode(), run.out());
        assertEquals("kcscale predict tasks: " + message + "\n", run.err());
    }

    @Test
    void superlinearMeasurementsAreRefusedNamingWhatToMeasure(@TempDir Path dir) throws IOException {
        Path csv = Files.writeString(dir.resolve("results.csv"), "tasks,throughput\n1,10\n2,100\n3,150\n4,160\n");
        CliRun run = CliRun.of("predict", "tasks", "--measurements", csv.toString(), "--target-rate", "100");
        assertEquals(2, run.exitCode(), run.out());
        assertEquals("", run.out(), "no answer from superlinear points");
        assertTrue(run.err().startsWith("kcscale predict tasks: --measurements are superlinear:"), run.err());
        assertTrue(run.err().contains("measure 1 and 2 tasks again"), run.err());
    }

    @Test
    void lagThresholdForAThirtySecondSlo() throws IOException {
        CliRun run = CliRun.of(
                "predict", "lag-threshold", "--per-task-rate", "100", "--tasks", "1", "--latency-slo-seconds", "30");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().matches("(?s).*lag threshold\\s+3,000\\s.*"), run.out());
        assertEquals(
                3000,
                json(
                                "predict",
                                "lag-threshold",
                                "--per-task-rate",
                                "100",
                                "--tasks",
                                "1",
                                "--latency-slo-seconds",
                                "30",
                                "--json")
                        .get("lagThreshold")
                        .asLong());
    }

    @Test
    void kafkaWithNetworkOutAsTheBottleneck() throws IOException {
        String[] args = {
            "predict",
            "kafka",
            "--brokers",
            "3",
            "--replication-factor",
            "3",
            "--consumer-groups",
            "2",
            "--storage-mbps",
            "250",
            "--storage-network-mbps",
            "1000",
            "--network-out-mbps",
            "300",
            "--target-mbps",
            "400"
        };
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().matches("(?s).*sustained limit\\s+225 MB/s\\s+bottleneck: network-out.*"), run.out());
        JsonNode json = json(append(args, "--json"));
        assertEquals(225, json.get("sustainedLimitMBps").asDouble(), 1e-9);
        assertEquals(180, json.get("recommendedMBps").asDouble(), 1e-9);
        assertEquals("network-out", json.get("bottleneck").asText());
        assertEquals(7, json.get("brokersNeeded").asInt());
    }

    @Test
    void shardsCoverTheRateAndTheDataNodes() throws IOException {
        JsonNode json = json(
                "predict",
                "shards",
                "--target-rate",
                "10000",
                "--per-shard-rate",
                "1500",
                "--data-nodes",
                "3",
                "--json");
        assertEquals(7, json.get("primaryShards").asInt());
        CliRun run =
                CliRun.of("predict", "shards", "--target-rate", "100", "--per-shard-rate", "1500", "--data-nodes", "3");
        assertTrue(run.out().matches("(?s).*primary shards\\s+3\\s.*"), run.out());
        assertTrue(run.out().contains("index template"), run.out());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--target-rate 0 --per-task-rate 70|--target-rate must be greater than 0, got 0",
                "--target-rate -5 --per-task-rate 70|--target-rate must be greater than 0, got -5",
                "--target-rate abc --per-task-rate 70|--target-rate must be a number, got 'abc'",
                "--target-rate NaN --per-task-rate 70|--target-rate must be a number, got 'NaN'",
                "--target-rate 100 --per-task-rate 0|--per-task-rate must be greater than 0, got 0",
                "--target-rate 1e300 --per-task-rate 70|--target-rate needs more than 2,147,483,647 tasks at 70 records/s"
                        + " per task: lower it",
                "--target-rate 100 --per-task-rate 70 --utilization 1.5|--utilization must be more than 0 and at most 1,"
                        + " got 1.5",
                "--target-rate 100 --per-task-rate 70 --utilization 0|--utilization must be more than 0 and at most 1, got 0",
                "--target-rate 100 --per-task-rate 70 --quantile 0.9|--quantile applies only with --arrivals poisson",
                "--target-rate 100 --per-task-rate 70 --arrivals bursty|--arrivals must be 'steady' or 'poisson', got 'bursty'",
                "--target-rate 100 --per-task-rate 70 --arrivals bursts|--arrivals must be 'steady' or 'poisson', got 'bursts'",
                "--target-rate 100|--per-task-rate is required (or give --measurements)"
            })
    void badInputIsOneLineNamingTheFlag(String flags, String message) {
        CliRun run = CliRun.of(append(new String[] {"predict", "tasks"}, flags.split(" ")));
        assertEquals(2, run.exitCode());
        assertEquals("", run.out(), "nothing half-printed");
        assertEquals("kcscale predict tasks: " + message + "\n", run.err());
    }

    @Test
    void outOfRangeCountsAreOneLineToo() {
        CliRun run = CliRun.of(
                "predict",
                "lag-threshold",
                "--per-task-rate",
                "100",
                "--tasks",
                "99999999999",
                "--latency-slo-seconds",
                "30",
                "--json");
        assertEquals(2, run.exitCode());
        assertEquals("", run.out());
        assertEquals(
                "kcscale predict lag-threshold: --tasks must be a whole number from 1 to 2,147,483,647,"
                        + " got 99,999,999,999\n",
                run.err());
        CliRun quantile = CliRun.of(
                "predict",
                "tasks",
                "--target-rate",
                "100",
                "--per-task-rate",
                "70",
                "--arrivals",
                "poisson",
                "--quantile",
                "1");
        assertEquals(
                "kcscale predict tasks: --quantile must be between 0 and 1 (both excluded), got 1\n", quantile.err());
    }

    @Test
    void aMissingRequiredFlagIsAUsageError() {
        CliRun run = CliRun.of("predict", "tasks", "--per-task-rate", "70");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("Missing required option: '--target-rate=<records/s>'"), run.err());
        assertEquals("", run.out());
    }

    @Test
    void anUnreadableMeasurementsFileIsNamed(@TempDir Path dir) {
        CliRun run = CliRun.of(
                "predict",
                "tasks",
                "--target-rate",
                "100",
                "--measurements",
                dir.resolve("missing.csv").toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("kcscale predict tasks: --measurements cannot read "), run.err());
    }

    @Test
    void plotWritesAnSvgAndSaysSoOnStderr(@TempDir Path dir) throws IOException {
        Path svg = dir.resolve("tasks.svg");
        CliRun run = CliRun.of(
                "predict",
                "tasks",
                "--target-rate",
                "10000",
                "--per-task-rate",
                "70",
                "--plot",
                svg.toString(),
                "--json");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(Files.readString(svg).startsWith("<svg "));
        assertEquals("chart written to " + svg + "\n", run.err());
        Json.MAPPER.readTree(run.out()); // stdout stays pure JSON
    }

    @Test
    void anUnwritablePlotFailsBeforePrintingAnything(@TempDir Path dir) {
        CliRun run = CliRun.of(
                "predict",
                "tasks",
                "--target-rate",
                "10000",
                "--per-task-rate",
                "70",
                "--plot",
                dir.resolve("no/such/dir/tasks.svg").toString());
        assertEquals(1, run.exitCode());
        assertEquals("", run.out());
        assertTrue(run.err().startsWith("kcscale predict tasks: cannot write --plot "), run.err());
    }

    /** The REST body mirrors the flags: every request field must be a flag of its verb, and back. */
    @Test
    void everyRequestFieldIsAFlagOfItsVerb() {
        // --measure reads the per-task rate from a running scaler: a CLI convenience, REST callers send perTaskRate
        assertMirrors(
                TasksRequest.class, "tasks", Set.of("--plot", "--measure", "--scaler-url", "--token", "--token-file"));
        assertMirrors(KafkaRequest.class, "kafka", Set.of());
        assertMirrors(LagThresholdRequest.class, "lag-threshold", Set.of());
        assertMirrors(ShardsRequest.class, "shards", Set.of());
    }

    private static void assertMirrors(Class<? extends Record> request, String verb, Set<String> cliOnly) {
        CommandLine command = KcscaleCommand.newCommandLine()
                .getSubcommands()
                .get("predict")
                .getSubcommands()
                .get(verb);
        Set<String> flags = command.getCommandSpec().options().stream()
                .map(CommandLine.Model.OptionSpec::longestName)
                .filter(name -> !Set.of("--help", "--version", "--json").contains(name) && !cliOnly.contains(name))
                .collect(Collectors.toSet());
        Set<String> fields = Arrays.stream(request.getRecordComponents())
                .map(RecordComponent::getName)
                .map(Flags::of)
                .collect(Collectors.toSet());
        assertEquals(fields, flags, verb);
    }

    private static JsonNode json(String... args) throws IOException {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.err());
        return Json.MAPPER.readTree(run.out());
    }

    private static String[] append(String[] args, String... more) {
        String[] all = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }
}
