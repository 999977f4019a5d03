package io.kcscale.lab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kcscale experiment ...}: experiments on a stack of their own that write their results to a folder. */
@Command(
        name = "experiment",
        mixinStandardHelpOptions = true,
        description =
                "Measure on this machine: results, report, charts and configuration under experiments/results/<timestamp>/.",
        subcommands = {ExperimentSweepCommand.class, ExperimentHumpsCommand.class, ExperimentValidateCommand.class})
final class ExperimentCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "name an experiment: " + spec.subcommands().keySet());
    }
}
