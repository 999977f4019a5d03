package io.kcscale.scaler.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of {@code kcscale} in this JVM, through {@link KcscaleCommand#newCommandLine()}, with what it printed. */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun of(String... args) {
        return of(KcscaleCommand.newCommandLine(), args);
    }

    /** One run of another root, such as the service's {@code kcscale serve}. */
    public static CliRun of(CommandLine cli, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode =
                cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }
}
