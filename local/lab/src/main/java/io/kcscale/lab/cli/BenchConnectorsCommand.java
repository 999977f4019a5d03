package io.kcscale.lab.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.lab.bench.ConnectorBenchResult;
import io.kcscale.lab.bench.ConnectorBenchmark;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.StackStartException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "connectors",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Start a stack of its own on free ports and measure one task of each connector at full speed:",
            "datagen unthrottled, the sink per-record and in bulk mode, and Elasticsearch's raw bulk rate (the ceiling),",
            "the bulk ones with 1 and with the default number of requests in flight, and where the bulk sink's",
            "requests spent their time (its task's trace, read from the worker's JMX exporter).",
            "Takes about four minutes."
        })
final class BenchConnectorsCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--json", description = "Print the figures as JSON instead of a table.")
    boolean json;

    @Option(
            names = "--warmup",
            paramLabel = "S",
            defaultValue = "10",
            description =
                    "Seconds each phase runs before it is measured, JIT compilation included (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(
            names = "--window",
            paramLabel = "S",
            defaultValue = "15",
            description = "Seconds each phase is measured over (default: ${DEFAULT-VALUE}).")
    int windowSeconds;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description =
                    "The benchmark stack's data, a few GB, wiped by the next run (default: data/bench in the toolkit's folder).")
    Path dataDir;

    @Override
    public Integer call() throws JsonProcessingException {
        if (warmupSeconds < 0 || windowSeconds < 1) {
            System.err.println("kcscale: --warmup must be 0 or more and --window at least 1 second");
            return 2;
        }
        Path data = dataDir != null
                ? dataDir.toAbsolutePath().normalize()
                : InstallLayout.toolkitHome().resolve("data/bench");
        ConnectorBenchResult result;
        try {
            result = ConnectorBenchmark.run(
                    InstallLayout.toolkitHome(),
                    data,
                    Duration.ofSeconds(warmupSeconds),
                    Duration.ofSeconds(windowSeconds),
                    m -> System.err.println("kcscale: " + m));
        } catch (IllegalStateException | IllegalArgumentException | StackStartException e) {
            System.err.println("kcscale: the benchmark failed: " + e.getMessage());
            return 1;
        }
        System.out.println(json ? JSON.writerWithDefaultPrettyPrinter().writeValueAsString(result) : table(result));
        return 0;
    }

    static String table(ConnectorBenchResult r) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "one connector task each; measured over %.0f s after %.0f s of warm-up%n",
                r.windowSeconds(),
                r.warmupSeconds()));
        row(out, "datagen source, unthrottled", r.datagenRecordsPerSecond(), "records/s");
        row(out, "sink, per-record (--sink-mode index)", r.perRecordSinkDocsPerSecond(), "docs/s");
        out.append(cpu("  CPU while it ran:          ", "worker", r.perRecordSinkCpu()));
        for (ConnectorBenchResult.BulkAgainstCeiling bulk : r.bulk()) {
            int n = bulk.inFlightRequests();
            row(
                    out,
                    String.format(
                            Locale.ROOT,
                            "sink, bulk (%d docs / %d ms), %d in flight",
                            r.bulkSize(),
                            r.aggregationTimeoutMs(),
                            n),
                    bulk.sinkDocsPerSecond(),
                    "docs/s");
            row(
                    out,
                    String.format(Locale.ROOT, "raw _bulk, %d docs each, %d in flight (ceiling)", r.bulkSize(), n),
                    bulk.rawDocsPerSecond(),
                    "docs/s");
            out.append(String.format(
                    Locale.ROOT,
                    "%-56s %10.0f %%%n",
                    "bulk sink / ceiling, " + n + " in flight",
                    100 * bulk.fractionOfCeiling()));
            out.append(cpu("  CPU while the sink ran:    ", "worker", bulk.sinkTurnsCpu()));
            out.append(cpu("  CPU while the raw load ran:", "raw load", bulk.rawTurnsCpu()));
            out.append(trace(bulk.requestTrace()));
        }
        r.notes().forEach(n -> out.append("note: ").append(n).append(System.lineSeparator()));
        return out.toString().stripTrailing();
    }

    /** Where the cores went over one kind of turn: what the sink is held against is not only its requests. */
    private static String cpu(String what, String sender, ConnectorBenchResult.TurnsCpu cpu) {
        return String.format(
                Locale.ROOT,
                "%s Elasticsearch %s, %s %s per 1,000 docs; %s cores in use by the stack%n",
                what,
                ms(cpu.elasticsearchMsPerThousandDocs()),
                sender,
                ms(cpu.senderMsPerThousandDocs()),
                cpu.stackCores() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", cpu.stackCores()));
    }

    /** Where the sink's requests spent their time, and how long its two threads waited, over its turns. */
    private static String trace(ConnectorBenchResult.RequestTrace trace) {
        if (trace == null) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "  %,d requests, median / p99 of each wait: ready->slot %s, slot->sent %s, sent->answered %s%n"
                        + "  share of the sink's turns waiting: the task's thread for room %.0f %%, the aggregator for a slot %.0f %%%n",
                trace.requests(),
                wait(trace.readyToSlot()),
                wait(trace.slotToSent()),
                wait(trace.sentToAnswered()),
                100 * trace.roomWaitShare(),
                100 * trace.slotWaitShare());
    }

    private static String wait(ConnectorBenchResult.Wait wait) {
        return wait.medianMs() == null
                ? "n/a"
                : String.format(Locale.ROOT, "%.2f / %.2f ms", wait.medianMs(), wait.p99Ms());
    }

    private static String ms(Double value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.1f ms", value);
    }

    private static void row(StringBuilder out, String what, double rate, String unit) {
        out.append(String.format(Locale.ROOT, "%-56s %,10.0f %s%n", what, rate, unit));
    }
}
