package io.kcscale.scaler.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kcscale predict}: capacity predictions from numbers alone, no running stack needed. */
@Command(
        name = "predict",
        mixinStandardHelpOptions = true,
        description = "Predict the capacity a target needs: tasks, Kafka brokers, lag thresholds, shards, workers.",
        subcommands = {
            PredictTasksCommand.class,
            PredictKafkaCommand.class,
            PredictLagThresholdCommand.class,
            PredictShardsCommand.class,
            PredictWorkersCommand.class
        })
public final class PredictCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a prediction is required: tasks, kafka," + " lag-threshold, shards or workers");
    }
}
