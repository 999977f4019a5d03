package io.kcscale.local.cli;

import io.kcscale.scaler.common.KcscaleVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The launcher's entry point: the {@code kcscale} script sends the local stack's verbs here (listed in subcommands, one class each). */
@Command(
        name = "kcscale",
        mixinStandardHelpOptions = true,
        versionProvider = KcscaleVersion.class,
        description = "Start and stop the local datagen -> Kafka -> Elasticsearch pipeline, and change its load.",
        subcommands = {UpCommand.class, DownCommand.class, LoadCommand.class})
public final class LocalCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Only without a verb: the {@code kcscale} script always passes one, {@code java -cp ... LocalCommand} may not. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a verb is required: up, down or load");
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line; tests run verbs through this without exiting the JVM. */
    public static CommandLine newCommandLine() {
        return new CommandLine(new LocalCommand());
    }
}
