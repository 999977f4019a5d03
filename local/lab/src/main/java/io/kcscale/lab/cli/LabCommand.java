package io.kcscale.lab.cli;

import io.kcscale.scaler.common.KcscaleVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kcscale bench ...} and {@code kcscale experiment ...}: the lab's verbs, each on a stack of its own. */
@Command(
        name = "kcscale",
        mixinStandardHelpOptions = true,
        versionProvider = KcscaleVersion.class,
        description = "Benchmarks and experiments on this machine, each on a stack the launcher starts.",
        subcommands = {BenchCommand.class, ExperimentCommand.class})
public final class LabCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a verb is required: bench or experiment");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LabCommand()).execute(args));
    }
}
