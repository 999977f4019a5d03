package io.kcscale.local.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code kcscale up} and {@code kcscale down}: the local stack's verbs, one class each. */
@Command(name = "kcscale", mixinStandardHelpOptions = true, version = "kcscale 0.1.0",
        description = "Start and stop the local datagen -> Kafka -> Elasticsearch pipeline.",
        subcommands = {UpCommand.class, DownCommand.class})
public final class LocalCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a verb is required: up or down");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalCommand()).execute(args));
    }
}
