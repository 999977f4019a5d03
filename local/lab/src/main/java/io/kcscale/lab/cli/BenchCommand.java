package io.kcscale.lab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kcscale bench ...}: committed benchmarks that measure on this machine; one subcommand each. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run a benchmark on this machine and print its figures (a table, or JSON with --json).",
        subcommands = {
            BenchConnectorsCommand.class,
            BenchAutoscaleCommand.class,
            BenchChaosCommand.class,
            BenchScalerCommand.class
        })
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "name a benchmark: " + spec.subcommands().keySet());
    }
}
