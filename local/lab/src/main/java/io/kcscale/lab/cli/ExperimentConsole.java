package io.kcscale.lab.cli;

import io.kcscale.lab.experiment.RunDirectory;
import io.kcscale.local.StackStartException;
import io.kcscale.scaler.poll.PollTimeoutException;
import java.io.PrintWriter;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How an experiment command runs and talks: progress and errors on stderr, one line each, with the
 * time of day (how long each step took is part of what a run shows); the results on stdout, as a
 * table or as {@code --json}; the files in a run folder of their own.
 */
final class ExperimentConsole {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final CommandSpec spec;
    private final ExperimentOptions options;
    private final PrintWriter err;

    ExperimentConsole(CommandSpec spec, ExperimentOptions options) {
        this.spec = spec;
        this.options = options;
        this.err = spec.commandLine().getErr();
    }

    void progress(String message) {
        err.println("kcscale: " + LocalTime.now().format(CLOCK) + " " + message);
        err.flush();
    }

    /** A bad flag: the message names it; exit code 2. */
    int refuse(IllegalArgumentException e) {
        err.println("kcscale experiment " + spec.name() + ": " + e.getMessage());
        err.flush();
        return 2;
    }

    /**
     * Runs the experiment, writes its run folder and prints its results: exit 0; or 1 after one line
     * saying why it failed.
     *
     * @param write     writes the run's files, given the command line as typed; returns their names
     * @param json      what {@code --json} prints
     * @param table     what is printed otherwise
     */
    <R> int run(
            Function<Consumer<String>, R> experiment,
            WriteFiles<R> write,
            Function<R, String> json,
            Function<R, String> table) {
        R result;
        try {
            result = experiment.apply(this::progress);
        } catch (RuntimeException e) {
            // the expected failures say what failed in their message; anything else is named by its type too
            boolean expected = e instanceof IllegalStateException
                    || e instanceof IllegalArgumentException
                    || e instanceof StackStartException
                    || e instanceof PollTimeoutException;
            progress("the " + spec.name() + " experiment failed: "
                    + (expected ? "" : e.getClass().getSimpleName() + ": ") + e.getMessage());
            return 1;
        }
        RunDirectory dir = RunDirectory.create(options.results());
        List<String> files = write.apply(dir, result, TypedCommand.of(spec));
        PrintWriter out = spec.commandLine().getOut();
        out.print(options.json ? json.apply(result) + "\n" : table.apply(result));
        out.flush();
        progress("results in " + dir.path() + ": " + String.join(", ", files));
        return 0;
    }

    /** Writes a result's files into its run folder. */
    @FunctionalInterface
    interface WriteFiles<R> {
        List<String> apply(RunDirectory dir, R result, String command);
    }
}
