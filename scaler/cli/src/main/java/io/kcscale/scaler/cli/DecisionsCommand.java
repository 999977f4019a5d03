package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code kcscale decisions NAME}: the autoscaler's latest decisions, each with its reason and outcome. */
@Command(
        name = "decisions",
        mixinStandardHelpOptions = true,
        description =
                "Show the autoscaler's latest decisions for a connector, newest first, with reasons and outcomes.")
public final class DecisionsCommand implements Callable<Integer> {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    @Mixin
    ConnectorVerbOptions connector = new ConnectorVerbOptions();

    @Override
    public Integer call() {
        try {
            connector.print(connector.client().get(connector.path("/autoscale")), DecisionsCommand::list);
            return 0;
        } catch (ScalerApiClient.Failure e) {
            return connector.failed(e);
        }
    }

    /** One line per decision (its inputs are in the JSON), or why there is none yet. */
    static String list(JsonNode state) {
        StringBuilder b = new StringBuilder();
        for (JsonNode r : state.path("decisions")) {
            JsonNode d = r.path("decision");
            b.append(String.format(
                    Locale.ROOT,
                    "%s  %-10s %s  %s  [%s]%n",
                    TIME.format(Instant.ofEpochMilli(d.path("atMillis").asLong())),
                    d.path("action").asText(),
                    // a decision on a connector not observed knows no tasks
                    d.has("fromTasks")
                            ? d.path("fromTasks").asText() + " -> "
                                    + d.path("toTasks").asText()
                            : "-",
                    d.path("reason").asText(),
                    r.path("outcome").asText()));
        }
        if (state.path("decisions").isEmpty()) {
            b.append("no decisions yet (the autoscaler evaluates every ")
                    .append(state.path("evaluationIntervalMillis").asLong() / 1000)
                    .append(" s)")
                    .append(System.lineSeparator());
        }
        return b.toString();
    }
}
