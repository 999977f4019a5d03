package io.kcscale.scaler.cli;

import io.kcscale.scaler.common.ErrorLine;
import io.kcscale.scaler.common.Json;
import io.kcscale.scaler.input.Flags;
import io.kcscale.scaler.input.InvalidInputException;
import java.io.IOException;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --json} and the printing every predict verb shares: the whole result, or one error line on
 * stderr naming the flag; never half of each.
 */
final class OutputOptions {

    @Option(names = "--json", description = "Print the result as JSON, as the REST API returns it.")
    boolean json;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** Work that may fail on bad input or on a file. */
    interface Computation<R> {
        R get() throws IOException;
    }

    <R> int print(Computation<R> computation, Function<R, TextReport> text) {
        R result;
        try {
            result = computation.get();
        } catch (InvalidInputException e) {
            return ErrorLine.print(spec, e.describe(Flags::of), spec.exitCodeOnInvalidInput());
        } catch (IOException e) {
            return ErrorLine.print(spec, e.getMessage(), spec.exitCodeOnExecutionException());
        }
        spec.commandLine()
                .getOut()
                .print(json ? Json.write(result) : text.apply(result).toString());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
