package io.kcscale.tests;

import java.io.PrintWriter;
import java.io.StringWriter;

import io.kcscale.lab.cli.LabCommand;
import picocli.CommandLine;

/** A {@code kcscale bench|experiment ...} command run in this JVM as a user types it: its exit status, what it printed and how long it took. */
record LabRun(int exit, String out, String err, double seconds) {

    static LabRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long started = System.nanoTime();
        int exit = new CommandLine(new LabCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
        return new LabRun(exit, out.toString(), err.toString(), (System.nanoTime() - started) / 1e9);
    }
}
