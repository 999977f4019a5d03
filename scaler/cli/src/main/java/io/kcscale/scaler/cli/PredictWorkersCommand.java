package io.kcscale.scaler.cli;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.predict.WorkerPrediction;
import io.kcscale.scaler.predict.WorkersRequest;
import io.kcscale.scaler.predict.WorkersResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcscale predict workers}: Connect workers for a target rate, from the measured CPU per record. */
@Command(
        name = "workers",
        mixinStandardHelpOptions = true,
        description =
                "Connect workers (and tasks per worker) a target rate needs, from the CPU the workers used per record.")
public final class PredictWorkersCommand implements Callable<Integer> {

    @Option(
            names = "--target-rate",
            required = true,
            paramLabel = "<records/s>",
            description = "Records per second to sink.")
    String targetRate;

    @Option(
            names = "--cpu-cores",
            required = true,
            paramLabel = "<cores>",
            description =
                    "CPU the workers' processes used in all while measured (the worker-capacity check's evidence shows it).")
    String cpuCores;

    @Option(
            names = "--measured-rate",
            required = true,
            paramLabel = "<records/s>",
            description = "Records per second the connector processed while that CPU was used.")
    String measuredRate;

    @Option(
            names = "--cores-per-worker",
            required = true,
            paramLabel = "<cores>",
            description = "Cores each worker gets.")
    String coresPerWorker;

    @Option(
            names = "--per-task-rate",
            paramLabel = "<records/s>",
            description = "Records per second one task sustains: adds tasks and tasks per worker to the answer.")
    String perTaskRate;

    @Option(
            names = "--utilization",
            paramLabel = "<share>",
            description = "How busy the workers' cores may be, more than 0 and at most 1 (default: "
                    + WorkerPrediction.DEFAULT_UTILIZATION + ").")
    String utilization;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        return output.print(
                () -> WorkerPrediction.predict(new WorkersRequest(
                        Inputs.parse("targetRate", targetRate),
                        Inputs.parse("cpuCores", cpuCores),
                        Inputs.parse("measuredRate", measuredRate),
                        Inputs.parse("coresPerWorker", coresPerWorker),
                        Inputs.parse("perTaskRate", perTaskRate),
                        Inputs.parse("utilization", utilization))),
                PredictWorkersCommand::text);
    }

    private static TextReport text(WorkersResult r) {
        TextReport report = new TextReport("Workers for " + Numbers.format(r.targetRate()) + " records/s with "
                        + Numbers.format(r.coresPerWorker()) + " cores each")
                .row("workers", String.valueOf(r.workers()), "Connect workers in the group")
                .row(
                        "per worker",
                        Numbers.format(r.recordsPerWorker()) + " records/s",
                        "at " + Numbers.format(r.utilization() * 100) + "% busy")
                .row("CPU per record", Numbers.format(r.cpuSecondsPerRecord() * 1000, 4) + " ms", "measured");
        if (r.tasks() != null) {
            report.row("tasks", String.valueOf(r.tasks()), "at the given per-task rate")
                    .row("tasks per worker", String.valueOf(r.tasksPerWorker()), "what one worker's CPU keeps busy");
        }
        return report.list("Assumptions", r.assumptions()).list("Advice", r.advice());
    }
}
