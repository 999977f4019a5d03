package io.kcscale.tests.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.tests.docs.DocsPages;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.FreePort;
import io.kcscale.tests.fixtures.ReleaseArtifact;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.ScalerImage;
import io.kcscale.tests.fixtures.SharedStack;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaler's image, built by {@code dist/image/build-image} from Debian's packages and the release tarball with
 * buildah (no daemon, no registry): its configuration (non-root, the health check on {@code /api/v1/instance}, the
 * release's {@code bin/kcscale} as entry point), and, where podman can start containers on the machine, a container
 * of it on a read-only root file system with no writable mount, observing the shared stack, healthy by its own
 * check. Where podman cannot, that part is skipped naming what podman said.
 */
@Order(9)
@ExtendWith(SharedStack.class)
class ScalerImageTest {

    private static final String TAG = "localhost/kcscale-test/scaler:" + ReleaseArtifact.version();
    private static final String HEALTH_URL = "http://127.0.0.1:8080/api/v1/instance";

    @TempDir
    static Path scratch;

    @BeforeAll
    static void build() {
        ScalerImage.build(TAG, scratch.resolve("kcscale-image.tar"));
    }

    @AfterAll
    static void remove() {
        ScalerImage.remove(TAG);
    }

    @Test
    @Order(1)
    void theImageRunsTheReleaseAsANonRootUserWithAHealthCheckOnTheInstanceRoute() {
        String out = ScalerImage.inspect(TAG);
        JsonNode image = RepositoryFiles.json(out.substring(out.indexOf('['))).get(0);
        JsonNode config = image.path("Config");
        assertEquals("10001:10001", config.path("User").asText(), config.toString());
        assertEquals(List.of("/opt/kcscale/bin/kcscale"), strings(config.path("Entrypoint")));
        assertEquals("serve", config.path("Cmd").get(0).asText(), config.toString());
        assertTrue(
                config.path("ExposedPorts").has("8080")
                        || config.path("ExposedPorts").has("8080/tcp"),
                config.toString());
        assertTrue(
                config.path("Volumes").isMissingNode() || config.path("Volumes").isNull(), "no volume: " + config);
        // podman's inspect holds a docker-format image's health check beside its config
        List<String> health = strings(image.path("Healthcheck").path("Test"));
        assertEquals("CMD", health.get(0), health.toString());
        assertEquals(HEALTH_URL, health.get(health.size() - 1), health.toString());
        assertEquals(
                ReleaseArtifact.version(),
                config.path("Labels").path("org.opencontainers.image.version").asText());
        System.out.printf(
                "[measure] image %s: %.0f MB unpacked%n",
                TAG, image.path("Size").asDouble() / 1e6);
    }

    /**
     * On a read-only root file system with no writable mount, as the user the image names, with every capability
     * dropped: serve observes the stack, the image's health check passes, and its CLI answers inside. The container
     * shares the host's network, since the stack's broker advertises 127.0.0.1; so serve takes a free port and the
     * health check runs the image's own command on that port.
     */
    @Test
    @Order(2)
    void aContainerOnAReadOnlyRootObservesTheStackAndIsHealthy(LocalStack stack) throws IOException {
        StringBuilder whyNot = new StringBuilder();
        Optional<List<String>> runFlags = ScalerImage.howToRun(TAG, whyNot);
        Assumptions.assumeTrue(
                runFlags.isPresent(),
                "podman cannot start a container on this machine, so the image was built and inspected only:\n"
                        + whyNot);
        System.out.println("[image] podman runs containers here with " + runFlags.get());

        // readable by all: the container's user is not the file's owner
        ReleaseArtifact.ScalerFiles files = ReleaseArtifact.scalerFiles(
                scratch, stack, ReleaseArtifact.exampleSettings(), "/etc/kcscale/token", "image-test", "r--r--r--");
        String secret = files.secret();
        Path settings = files.settings();
        Path token = files.token();
        Map<String, Path> mounted = Map.of("/etc/kcscale/scaler.properties", settings, "/etc/kcscale/token", token);
        int port = FreePort.any();
        String name = "kcscale-image-test-" + UUID.randomUUID().toString().substring(0, 8);

        // docs/install.md's command, with the changes its "What is tested here" names
        List<String> run = new ArrayList<>(List.of("podman", "run"));
        run.addAll(runFlags.get());
        List<String> documented = documentedPodmanRun();
        for (int i = 2; i < documented.size() - 1; i++) {
            String arg = documented.get(i);
            if (arg.equals("--name")) {
                run.addAll(List.of("--name", name));
                i++;
            } else if (arg.startsWith("--publish")) {
                // the stack's broker advertises 127.0.0.1: the host's network, and serve on a free port of it
                run.add("--network=host");
            } else if (arg.startsWith("--volume=")) {
                String[] parts = arg.substring("--volume=".length()).split(":");
                assertTrue(mounted.containsKey(parts[1]), "the page mounts " + parts[1]);
                run.add("--volume=" + mounted.get(parts[1]) + ":" + parts[1] + ":" + parts[2]);
            } else {
                run.add(arg);
            }
        }
        assertTrue(documented.get(documented.size() - 1).startsWith("kcscale/scaler:"), documented.toString());
        run.addAll(List.of(
                "--health-cmd=" + healthCommand().replace(":8080/", ":" + port + "/"),
                TAG,
                "serve",
                "--config=/etc/kcscale/scaler.properties",
                "--bind=127.0.0.1",
                "--port=" + port));
        for (String hardening : List.of("--read-only", "--read-only-tmpfs=false", "--cap-drop=ALL", "--detach")) {
            assertTrue(run.contains(hardening), "the page's command has " + hardening + ": " + documented);
        }
        try {
            assertFalse(lastLine(ok(run)).isEmpty(), "no container id");
            ScalerHttp http = new ScalerHttp(URI.create("http://127.0.0.1:" + port));
            String sink = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;
            http.awaitGet(sink, s -> s.path("tasks").size() > 0, Duration.ofSeconds(120));

            Commands.Result health = podman("healthcheck", "run", name);
            assertEquals(0, health.exit(), "the image's health check failed: " + health.output());
            assertEquals("10001", lastLine(ok(podman("exec", name, "id", "-u"))));
            Commands.Result write = podman("exec", name, "touch", "/opt/kcscale/x");
            assertNotEquals(0, write.exit(), "the root file system is writable: " + write.output());
            assertTrue(write.output().contains("Read-only file system"), write.output());
            JsonNode status = jsonIn(ok(podman(
                    "exec",
                    name,
                    "/opt/kcscale/bin/kcscale",
                    "status",
                    StackOptions.SINK_CONNECTOR,
                    "--scaler-url",
                    "http://127.0.0.1:" + port,
                    "--json")));
            assertEquals(StackOptions.SINK_CONNECTOR, status.path("name").asText());
            String plan = "{\"tasks\": " + status.path("tasksMax").asInt() + ", \"dryRun\": true}";
            assertNotEquals(401, http.post(sink + "/scale", plan, secret).status(), "the token file was not read");

            Commands.Result stop = podman("stop", "--time", "30", name);
            assertEquals(0, stop.exit(), stop.output());
            String exit = lastLine(ok(podman("inspect", "--format", "{{.State.ExitCode}}", name)));
            System.out.println("[image] serve stopped with exit code " + exit);
            assertTrue(List.of("0", "143").contains(exit), "serve did not stop on SIGTERM: exit " + exit);
        } finally {
            Commands.Result logs = podman("logs", name);
            System.out.println("[image serve] " + logs.output().strip().replace("\n", "\n[image serve] "));
            podman("rm", "--force", name);
        }
    }

    /** docs/install.md's {@code podman run} command, split into its words. */
    private static List<String> documentedPodmanRun() {
        for (DocsPages.Block b : DocsPages.blocks(RepositoryFiles.home().resolve("docs/install.md"))) {
            for (String line : b.text().replaceAll("\\\\\n\\s*", " ").lines().toList()) {
                if (line.startsWith("podman run ")) {
                    return List.of(line.strip().split("\\s+"));
                }
            }
        }
        throw new AssertionError("docs/install.md shows no podman run command");
    }

    /** Every {@code dist/image/build-image} command of the docs uses flags its {@code --help} lists. */
    @Test
    @Order(3)
    void theDocsBuildTheImageWithFlagsTheScriptHas() {
        String help = Commands.runOk(
                RepositoryFiles.home(),
                Duration.ofMinutes(1),
                List.of(RepositoryFiles.home().resolve("dist/image/build-image").toString(), "--help"));
        int commands = 0;
        for (Path page : DocsPages.pages()) {
            for (DocsPages.Block b : DocsPages.blocks(page)) {
                for (String line : b.text().lines().toList()) {
                    int at = line.indexOf("dist/image/build-image");
                    if (at < 0) {
                        continue;
                    }
                    commands++;
                    for (String word : line.substring(at).split("\\s+")) {
                        if (word.startsWith("--")) {
                            assertTrue(
                                    help.contains(word + " ") || help.contains(word + "\n"), b.where() + ": " + word);
                        }
                    }
                }
            }
        }
        assertTrue(commands >= 1, "the docs build the image");
    }

    /** The docker-archive {@code --archive} writes is an image skopeo reads, of this version. */
    @Test
    @Order(4)
    void theArchiveIsAnImageOfThisVersion() {
        Path archive = scratch.resolve("kcscale-image.tar");
        String out = Commands.runOk(
                scratch, Duration.ofMinutes(2), List.of("skopeo", "inspect", "docker-archive:" + archive));
        JsonNode image = jsonIn(out);
        assertEquals(
                ReleaseArtifact.version(),
                image.path("Labels").path("org.opencontainers.image.version").asText());
        System.out.printf("[measure] image archive: %.0f MB%n", archive.toFile().length() / 1e6);
    }

    /** The health check's command as the image holds it, for a shell. */
    private static String healthCommand() {
        String out = ScalerImage.inspect(TAG);
        List<String> test = strings(RepositoryFiles.json(out.substring(out.indexOf('[')))
                .get(0)
                .path("Healthcheck")
                .path("Test"));
        return String.join(" ", test.subList(1, test.size()));
    }

    /** The last line of a command's output: podman may log (to stderr, merged here) before its answer. */
    private static String lastLine(String output) {
        List<String> lines = output.strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
    }

    /** The JSON object in a command's output, past anything podman logged before it. */
    private static JsonNode jsonIn(String output) {
        return RepositoryFiles.json(output.substring(output.indexOf('{')));
    }

    private static Commands.Result podman(String... args) {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        return Commands.run(scratch, Duration.ofMinutes(2), Map.of(), command);
    }

    private static String ok(List<String> command) {
        Commands.Result r = Commands.run(scratch, Duration.ofMinutes(2), Map.of(), command);
        assertEquals(0, r.exit(), String.join(" ", command) + ":\n" + r.output());
        return r.output();
    }

    private static String ok(Commands.Result r) {
        assertEquals(0, r.exit(), r.output());
        return r.output();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
