package io.kcscale.tests.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.ConfigTemplate;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One source of truth: every configs/ template filled by the compose stack's render-config
 * (envsubst) reads exactly as the launcher's ConfigTemplate fills it, and a value left unset fails
 * both ways instead of becoming an empty string.
 */
class RenderConfigTest {

    private static final Path HOME = RepositoryFiles.home();
    private static final Path SCRIPT = HOME.resolve("compose/bin/render-config");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z0-9_]+)}");

    @Test
    void envsubstAndTheLauncherFillEveryTemplateAlike() throws IOException {
        List<Path> templates;
        try (Stream<Path> files = Files.walk(HOME.resolve("configs"))) {
            templates = files.filter(
                            f -> f.toString().endsWith(".json") || f.toString().endsWith(".properties"))
                    .sorted()
                    .toList();
        }
        assertTrue(templates.size() >= 6, "templates found: " + templates);
        for (Path template : templates) {
            Map<String, String> values = new TreeMap<>();
            Matcher m = PLACEHOLDER.matcher(Files.readString(template));
            while (m.find()) {
                // characters a shell, sed or a JSON file would trip over
                values.put(m.group(1), "v&/" + m.group(1).toLowerCase() + "$1 \\x");
            }
            Commands.Result shell = Commands.run(
                    HOME, Duration.ofSeconds(30), values, List.of("sh", SCRIPT.toString(), template.toString()));
            assertEquals(0, shell.exit(), template + ": " + shell.output());
            assertEquals(
                    ConfigTemplate.load(template).render(values),
                    shell.output(),
                    HOME.relativize(template).toString());
        }
    }

    @Test
    void aPlaceholderWithoutAValueIsAnErrorThatNamesIt() {
        Path template = HOME.resolve("configs/connectors/stocks-es-sink.json");
        Commands.Result r = Commands.run(
                HOME,
                Duration.ofSeconds(30),
                Map.of("TOPIC", "stocks", "INDEX", "stocks"),
                List.of("sh", SCRIPT.toString(), template.toString()));
        assertNotEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("needs values for ES_HOST_PORT SINK_TASKS"), r.output());
    }
}
