package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.ErrorLine;
import io.kcscale.scaler.common.Json;
import java.io.PrintWriter;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What every live verb on one connector shares: its NAME, {@code --json}, the scaler's address and
 * token, and how it prints an answer or a failure.
 */
final class ConnectorVerbOptions {

    @Parameters(paramLabel = "NAME", description = "The sink connector.")
    String name;

    @Option(names = "--json", description = "Print the API's JSON instead of text.")
    boolean json;

    @Mixin
    ScalerConnectionOptions connection = new ScalerConnectionOptions();

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** This connector's API path with {@code suffix} ({@code ""}, {@code "/scale"}, ...). */
    String path(String suffix) {
        return ScalerApiClient.connectorPath(name, suffix);
    }

    ScalerApiClient client() {
        return connection.client();
    }

    /** The scaler refused (naming its status), found no such connector, or did not answer: one line, exit code 1. */
    int failed(ScalerApiClient.Failure e) {
        boolean refused = e.status > 0 && e.status != 404;
        return ErrorLine.print(spec, (refused ? "refused (" + e.status + "): " : "") + e.getMessage(), 1);
    }

    /** A flag's value is wrong: one line saying what to change, picocli's exit code for bad input. */
    int invalid(String message) {
        return ErrorLine.print(spec, message, spec.exitCodeOnInvalidInput());
    }

    /** The answer as the API gave it with {@code --json}, else its readable form. */
    void print(JsonNode answer, Function<JsonNode, String> text) {
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? Json.write(answer) + System.lineSeparator() : text.apply(answer));
        out.flush();
    }
}
