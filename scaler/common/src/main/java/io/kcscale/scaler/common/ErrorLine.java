package io.kcscale.scaler.common;

import picocli.CommandLine.Model.CommandSpec;

/** How a verb reports a failure: one line on stderr naming the command, and an exit code. */
public final class ErrorLine {

    private ErrorLine() {}

    public static int print(CommandSpec spec, String message, int exitCode) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + message);
        spec.commandLine().getErr().flush();
        return exitCode;
    }
}
