package io.kcscale.scaler.cli;

import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import io.kcscale.scaler.api.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kcscale decisions NAME}: the autoscaler's latest decisions, each with its reason and outcome. */
@Command(name = "decisions", mixinStandardHelpOptions = true,
        description = "Show the autoscaler's latest decisions for a connector, newest first, with reasons and outcomes.")
public final class DecisionsCommand implements Callable<Integer> {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    @Parameters(paramLabel = "NAME", description = "The sink connector.")
    String name;
    @Option(names = "--json", description = "Print the API's JSON (with every decision's inputs).")
    boolean json;
    @Mixin
    ScalerConnectionOptions connection = new ScalerConnectionOptions();
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        JsonNode state;
        try {
            state = connection.client().get("/api/v1/connectors/" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "/autoscale");
        } catch (ScalerApiClient.Failure e) {
            return ErrorLine.print(spec, e.getMessage(), 1);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.write(state));
        } else {
            for (JsonNode r : state.path("decisions")) {
                JsonNode d = r.path("decision");
                out.printf("%s  %-10s %s -> %s  %s  [%s]%n", TIME.format(Instant.ofEpochMilli(d.path("atMillis").asLong())),
                        d.path("action").asText(), d.path("fromTasks").asText(), d.path("toTasks").asText(),
                        d.path("reason").asText(), r.path("outcome").asText());
            }
            if (state.path("decisions").isEmpty()) {
                out.println("no decisions yet (the autoscaler evaluates every "
                        + state.path("evaluationIntervalMillis").asLong() / 1000 + " s)");
            }
        }
        out.flush();
        return 0;
    }
}
