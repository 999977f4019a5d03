package io.kcscale.tests;

import java.io.PrintWriter;
import java.io.StringWriter;

import io.kcscale.scaler.cli.KcscaleCommand;
import picocli.CommandLine;

/** Runs a {@code kcscale} verb in this JVM, as the launcher script would, keeping its exit code and output. */
final class CliInProcess {

    record Run(int exit, String out, String err) {
    }

    private CliInProcess() {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = KcscaleCommand.newCommandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
