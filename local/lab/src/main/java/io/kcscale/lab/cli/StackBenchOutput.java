package io.kcscale.lab.cli;

import io.kcscale.lab.experiment.RunDirectory;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackStartException;
import io.kcscale.scaler.common.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * What the benchmarks on a stack of their own share: {@code --json} and {@code --results-dir}, running the
 * benchmark so that Ctrl-C stops its stack and a failure is one line, and writing and printing the result.
 */
final class StackBenchOutput {

    @Option(names = "--json", description = "Print the result as JSON instead of a table.")
    boolean json;

    @Option(
            names = "--results-dir",
            paramLabel = "DIR",
            description = "Where each run's directory goes (default: experiments/results, git-ignored).")
    Path resultsDir;

    /** The benchmark's result, or empty when it failed (said on standard error). */
    static <T> Optional<T> run(Path dataDir, Function<Consumer<String>, T> benchmark) {
        Consumer<String> progress = m -> System.err.println("kcscale: " + m);
        // Ctrl-C must not leave the benchmark's stack running
        Thread stopStack = new Thread(() -> LocalStack.stopRecorded(dataDir, progress));
        Runtime.getRuntime().addShutdownHook(stopStack);
        try {
            return Optional.of(benchmark.apply(progress));
        } catch (IllegalStateException | IllegalArgumentException | StackStartException e) {
            System.err.println("kcscale: the benchmark failed: " + e.getMessage());
            return Optional.empty();
        } finally {
            Runtime.getRuntime().removeShutdownHook(stopStack);
        }
    }

    /**
     * Writes {@code result} as {@code file} and the configuration beside it in a new run directory, and prints
     * the result (as JSON with {@code --json}, else {@code table}) on picocli's writer: a caller that runs the
     * verb in-process reads it there.
     */
    void write(
            CommandLine.Model.CommandSpec spec,
            Path home,
            String file,
            Object result,
            Map<String, Object> configuration,
            String table) {
        RunDirectory run = RunDirectory.create(resultsDir != null ? resultsDir : home.resolve("experiments/results"));
        run.writeJson(file, result);
        run.writeJson("config.json", configuration);
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? Json.write(result) : table);
        out.flush();
        System.err.println("kcscale: the result and its configuration are in " + run.path());
    }
}
