package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * configs/prometheus/ through Debian's promtool: the rules are valid and pass their unit tests
 * (configs/prometheus/tests/), and the configuration is valid as compose mounts it, targets included.
 */
class PrometheusRulesTest {

    private static final Path PROMETHEUS = RepositoryFiles.home().resolve("configs/prometheus");

    @Test
    void rulesAreValid() throws IOException {
        promtool(PROMETHEUS, "check", "rules", filesIn(PROMETHEUS.resolve("rules")));
    }

    @Test
    void rulesPassTheirUnitTests() throws IOException {
        promtool(PROMETHEUS, "test", "rules", filesIn(PROMETHEUS.resolve("tests")));
    }

    @Test
    void theConfigurationIsValidAsComposeMountsIt(@TempDir Path etc) throws IOException {
        // the prometheus service's three mounts, in one directory
        Files.copy(PROMETHEUS.resolve("prometheus.yml"), etc.resolve("prometheus.yml"));
        for (String dir : List.of("rules", "targets")) {
            Path from = dir.equals("rules")
                    ? PROMETHEUS.resolve(dir)
                    : RepositoryFiles.home().resolve("compose/prometheus/targets");
            Files.createDirectory(etc.resolve(dir));
            for (Path f : filesIn(from)) {
                Files.copy(f, etc.resolve(dir).resolve(f.getFileName()));
            }
        }
        String out = promtool(etc, "check", "config", List.of(etc.resolve("prometheus.yml")));
        assertFalse(out.contains("WARNING"), out);
    }

    private static String promtool(Path dir, String verb, String what, List<Path> files) {
        List<String> command = new ArrayList<>(List.of("promtool", verb, what));
        files.forEach(f -> command.add(f.toString()));
        return Commands.runOk(dir, Duration.ofMinutes(2), command);
    }

    private static List<Path> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }
}
