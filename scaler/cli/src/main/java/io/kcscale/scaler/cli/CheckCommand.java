package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.input.Flags;
import io.kcscale.scaler.input.InvalidInputException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcscale check NAME}: every scaling check's finding for a sink connector; exit 1 when one is a warning or worse. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Run the scaling checks on a sink connector through the scaler: key cardinality, partition skew,",
            "idle tasks, partition count, index shards, duplicate sinks, rebalance config, stability.",
            "Exits 0 when no finding is a warning or worse, 1 otherwise (or when the scaler cannot answer)."
        })
public final class CheckCommand implements Callable<Integer> {

    /** Beyond the sampling budget, time for the other reads of a check. */
    private static final Duration ANSWER_MARGIN = Duration.ofSeconds(30);

    private static final String INDENT = "          ";

    @Mixin
    ConnectorVerbOptions connector = new ConnectorVerbOptions();

    @Option(
            names = "--sample-records",
            paramLabel = "N",
            description = "Most records the key sample reads, the newest of each partition (default: "
                    + SampleBudget.DEFAULT_RECORDS + ").")
    String sampleRecords;

    @Option(
            names = "--sample-seconds",
            paramLabel = "S",
            description = "Most seconds the key sample reads for (default: 5).")
    String sampleSeconds;

    @Override
    public Integer call() {
        SampleBudget budget;
        try {
            budget = SampleBudget.parse(sampleRecords, sampleSeconds);
        } catch (InvalidInputException e) {
            return connector.invalid(e.describe(Flags::of));
        }
        String path = connector.path("/checks?sampleRecords=" + budget.records() + "&sampleSeconds="
                + budget.time().toMillis() / 1000.0);
        JsonNode report;
        try {
            report = connector.client().get(path, budget.time().plus(ANSWER_MARGIN));
        } catch (ScalerApiClient.Failure e) {
            return connector.failed(e);
        }
        connector.print(report, CheckCommand::report);
        String worst = report.path("severity").asText();
        return worst.equals("warning") || worst.equals("critical") ? 1 : 0;
    }

    /** The readable form: a summary line, then per finding its severity, id and title, evidence and advice. */
    static String report(JsonNode r) {
        Map<String, Integer> counts = new TreeMap<>();
        r.path("findings").forEach(f -> counts.merge(f.path("severity").asText(), 1, Integer::sum));
        List<String> summary = new ArrayList<>();
        for (String severity : List.of("critical", "warning", "info", "ok", "not-applicable")) {
            if (counts.containsKey(severity)) {
                summary.add(counts.get(severity) + " " + severity);
            }
        }
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT,
                "%s: %s (judged for %d tasks)%n%n",
                r.path("connector").asText(),
                String.join(", ", summary),
                r.path("tasks").asInt()));
        for (JsonNode f : r.path("findings")) {
            b.append(String.format(
                    Locale.ROOT,
                    "%-9s %-17s %s%n",
                    f.path("severity").asText().toUpperCase(Locale.ROOT),
                    f.path("id").asText(),
                    f.path("title").asText()));
            List<String> evidence = new ArrayList<>();
            f.path("evidence").fields().forEachRemaining(e -> evidence.add(e.getKey() + "=" + value(e.getValue())));
            b.append(INDENT)
                    .append("evidence: ")
                    .append(String.join(", ", evidence))
                    .append(System.lineSeparator());
            if (!f.path("severity").asText().equals("ok")) {
                b.append(INDENT)
                        .append("advice: ")
                        .append(f.path("advice").asText().replace("\n", System.lineSeparator() + INDENT + "  "))
                        .append(System.lineSeparator());
            }
        }
        return b.toString();
    }

    private static String value(JsonNode v) {
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(i -> items.add(value(i)));
            return "[" + String.join(", ", items) + "]";
        }
        if (v.isObject()) {
            List<String> items = new ArrayList<>();
            v.fields().forEachRemaining(e -> items.add(e.getKey() + ": " + value(e.getValue())));
            return "{" + String.join(", ", items) + "}";
        }
        return v.asText();
    }
}
