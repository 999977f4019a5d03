package io.kcscale.scaler.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kcscale} command line. Each verb is its own class, registered here; {@code up},
 * {@code down} and {@code load} belong to the local launcher and are dispatched by the {@code kcscale} script.
 */
@Command(name = "kcscale",
        mixinStandardHelpOptions = true,
        version = "kcscale 0.1.0",
        description = "Scale Kafka Connect sink pipelines into Elasticsearch.",
        subcommands = {CommandLine.HelpCommand.class, StatusCommand.class, CheckCommand.class, ScaleCommand.class, AutoscaleCommand.class, DecisionsCommand.class, PredictCommand.class, ServeCommand.class})
public final class KcscaleCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a verb is required");
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line; tests run verbs through this without exiting the JVM. */
    public static CommandLine newCommandLine() {
        return new CommandLine(new KcscaleCommand());
    }
}
