package io.kcscale.lab.cli;

import picocli.CommandLine.Model.CommandSpec;

/** The command line a run was started with, as a user would type it again: what a result file records. */
final class TypedCommand {

    private TypedCommand() {}

    /** {@code ./kcscale} and every argument the root command was given (the verbs included). */
    static String of(CommandSpec spec) {
        return "./kcscale "
                + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }
}
