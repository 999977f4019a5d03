package io.kcscale.tests.observe;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Every metric name the Prometheus rules (configs/prometheus/rules/) and the Grafana dashboards
 * (grafana/dashboards/) query, with where each is used; and the names the recording rules make.
 */
final class MetricNamesInUse {

    /** Metric name -> where it is used ("rules/alerts.yml KcscaleTaskFailed", "kcscale-experiment.json: Sink rate"). */
    final Map<String, Set<String>> usedBy = new TreeMap<>();
    /** Names recording rules produce. */
    final Set<String> recorded = new TreeSet<>();

    static MetricNamesInUse read(Path home) {
        MetricNamesInUse names = new MetricNamesInUse();
        eachFile(home.resolve("configs/prometheus/rules"), ".yml", file -> {
            for (JsonNode group : RepositoryFiles.yaml(file).path("groups")) {
                for (JsonNode rule : group.path("rules")) {
                    String name = rule.has("record")
                            ? rule.path("record").asText()
                            : rule.path("alert").asText();
                    if (rule.has("record")) {
                        names.recorded.add(name);
                    }
                    names.use(PromQlNames.of(rule.path("expr").asText()), "rules/" + file.getFileName() + " " + name);
                }
            }
        });
        eachFile(home.resolve("grafana/dashboards"), ".json", file -> {
            JsonNode dashboard = RepositoryFiles.json(file);
            String where = file.getFileName() + ": ";
            dashboard.path("panels").forEach(panel -> names.usePanel(panel, where));
            for (JsonNode annotation : dashboard.path("annotations").path("list")) {
                names.use(
                        PromQlNames.of(annotation.path("expr").asText()),
                        where + "annotation " + annotation.path("name").asText());
            }
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                JsonNode query = variable.path("query");
                String text =
                        query.isTextual() ? query.asText() : query.path("query").asText();
                names.use(
                        PromQlNames.ofVariableQuery(text),
                        where + "variable " + variable.path("name").asText());
            }
        });
        return names;
    }

    private void usePanel(JsonNode panel, String where) {
        for (JsonNode target : panel.path("targets")) {
            use(
                    PromQlNames.of(target.path("expr").asText()),
                    where + panel.path("title").asText());
        }
        panel.path("panels").forEach(nested -> usePanel(nested, where)); // a row's panels
    }

    private void use(Set<String> metricNames, String where) {
        metricNames.forEach(n -> usedBy.computeIfAbsent(n, k -> new TreeSet<>()).add(where));
    }

    private static void eachFile(Path dir, String suffix, Consumer<Path> action) {
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.toString().endsWith(suffix)).sorted().forEach(action);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
