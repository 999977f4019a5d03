package io.kcscale.scaler.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of {@code kcscale} in this JVM, through {@link KcscaleCommand#newCommandLine()}, with what it printed. */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = KcscaleCommand.newCommandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }
}
