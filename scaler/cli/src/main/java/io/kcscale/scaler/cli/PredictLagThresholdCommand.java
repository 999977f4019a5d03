package io.kcscale.scaler.cli;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.predict.LagThreshold;
import io.kcscale.scaler.predict.LagThresholdRequest;
import io.kcscale.scaler.predict.LagThresholdResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcscale predict lag-threshold}: the lag to alert on for a latency SLO. */
@Command(
        name = "lag-threshold",
        mixinStandardHelpOptions = true,
        description = "The largest consumer lag that still meets a latency SLO (Little's law).")
public final class PredictLagThresholdCommand implements Callable<Integer> {

    @Option(
            names = "--per-task-rate",
            required = true,
            paramLabel = "<records/s>",
            description = "Records per second one task sustains.")
    String perTaskRate;

    @Option(names = "--tasks", required = true, paramLabel = "<count>", description = "Tasks running.")
    String tasks;

    @Option(
            names = "--latency-slo-seconds",
            required = true,
            paramLabel = "<seconds>",
            description = "The average latency the pipeline must stay within.")
    String latencySloSeconds;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        return output.print(
                () -> LagThreshold.predict(new LagThresholdRequest(
                        Inputs.parse("perTaskRate", perTaskRate),
                        Inputs.parse("tasks", tasks),
                        Inputs.parse("latencySloSeconds", latencySloSeconds))),
                PredictLagThresholdCommand::text);
    }

    private static TextReport text(LagThresholdResult result) {
        return new TextReport("Lag threshold for a " + Numbers.format(result.latencySloSeconds()) + " s latency SLO")
                .row("lag threshold", Numbers.format(result.lagThreshold()), "records; alert above this")
                .row(
                        "drain rate",
                        Numbers.format(result.drainRate()),
                        "records/s (" + result.tasks() + " x " + Numbers.format(result.perTaskRate()) + ")")
                .list("Assumptions", result.assumptions());
    }
}
