package io.kcscale.tests.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.tests.fixtures.ComposeFile;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The compose stack, checked offline (no Docker engine runs in CI): the Compose v2 binary validates
 * the file, and what only a real start would otherwise reveal is asserted on its normalized form:
 * every "healthy" or "completed" condition can be met, bind mounts exist (Docker would silently
 * mount an empty directory), the images copy what the Maven build staged and their ignore files
 * send it, and the broker runs with the local broker's settings.
 */
class ComposeStackTest {

    private static final Path HOME = RepositoryFiles.home();

    @Test
    void theComposeV2BinaryAcceptsTheFile() {
        ComposeFile.config("-q");
    }

    @Test
    void everyStartConditionIsOneItsDependencyCanMeet() {
        JsonNode services = ComposeFile.normalized().path("services");
        services.fields()
                .forEachRemaining(service -> service.getValue()
                        .path("depends_on")
                        .fields()
                        .forEachRemaining(dep -> {
                            JsonNode target = services.path(dep.getKey());
                            String condition = dep.getValue().path("condition").asText();
                            String what = service.getKey() + " waits for " + dep.getKey() + " to be " + condition;
                            assertFalse(target.isMissingNode(), what + ", which is no service");
                            if (condition.equals("service_healthy")) {
                                assertTrue(
                                        target.path("healthcheck").path("test").isArray(),
                                        what + ", which has no health check");
                            }
                            if (condition.equals("service_completed_successfully")) {
                                assertEquals("no", target.path("restart").asText("no"), what + ", which restarts");
                            }
                        }));
    }

    @Test
    void bindMountsPointAtFilesOfTheRepository() {
        ComposeFile.normalized().path("services").fields().forEachRemaining(service -> {
            for (JsonNode volume : service.getValue().path("volumes")) {
                if (volume.path("type").asText().equals("bind")) {
                    Path source = Path.of(volume.path("source").asText());
                    assertTrue(
                            source.startsWith(HOME) && Files.exists(source),
                            service.getKey() + " mounts " + source + ", which is not in the repository");
                }
            }
        });
    }

    @Test
    void imagesCopyWhatTheBuildStagedAndTheirIgnoreFilesLetThrough() throws IOException {
        List<String> built = new ArrayList<>();
        for (JsonNode service : ComposeFile.normalized().path("services")) {
            JsonNode build = service.path("build");
            if (build.isMissingNode()) {
                continue;
            }
            Path context = Path.of(build.path("context").asText());
            Path dockerfile = context.resolve(build.path("dockerfile").asText());
            assertEquals(HOME, context, "build contexts are the repository root");
            List<String> allowed = ignoreFileExceptions(Path.of(dockerfile + ".dockerignore"));
            for (String line : Files.readAllLines(dockerfile)) {
                if (!line.startsWith("COPY ")) {
                    continue;
                }
                List<String> words = Arrays.stream(line.split("\\s+"))
                        .skip(1)
                        .filter(w -> !w.startsWith("--"))
                        .toList();
                for (String source : words.subList(0, words.size() - 1)) {
                    String path = source.replaceAll("/$", "");
                    assertTrue(
                            matchesSomething(path),
                            dockerfile.getFileName() + " copies " + source
                                    + ", which the build did not produce (run `./kcscale build`)");
                    assertTrue(
                            allowed.stream()
                                    .anyMatch(a -> path.equals(a)
                                            || path.startsWith(a + "/")
                                            || FileSystems.getDefault()
                                                    .getPathMatcher("glob:" + a)
                                                    .matches(Path.of(path))),
                            dockerfile.getFileName() + " copies " + source
                                    + ", which its .dockerignore keeps out of the context");
                    built.add(path);
                }
            }
        }
        assertTrue(built.size() >= 6, "both images copy their files: " + built);
    }

    @Test
    void theBrokerHasTheLocalBrokersSettings() throws IOException {
        Properties local = new Properties();
        try (Reader in = Files.newBufferedReader(HOME.resolve("configs/kafka/broker.properties"))) {
            local.load(in);
        }
        JsonNode env = ComposeFile.normalized().path("services").path("kafka").path("environment");
        for (String key : local.stringPropertyNames()) {
            String value = local.getProperty(key);
            // placeholders are per deployment; compose's listener map also names the listener for the host
            if (value.contains("${") || key.equals("listener.security.protocol.map")) {
                continue;
            }
            // the apache/kafka image reads KAFKA_A_B as a.b
            String variable = "KAFKA_" + key.toUpperCase().replace('.', '_');
            assertEquals(
                    value,
                    env.path(variable).asText(null),
                    variable + " (" + key + " in configs/kafka/broker.properties)");
        }
    }

    @Test
    void theWorkerTemplateGetsEveryValueItNeedsWithConnectsOwnCommitIntervalByDefault() throws IOException {
        String template = Files.readString(HOME.resolve("configs/connect/worker.properties"));
        Set<String> given = new HashSet<>();
        ComposeFile.normalized()
                .path("services")
                .path("connect")
                .path("environment")
                .fieldNames()
                .forEachRemaining(given::add);
        // what the image sets itself (ENV lines of its Dockerfile)
        for (String line : Files.readAllLines(HOME.resolve("compose/connect.Dockerfile"))) {
            if (line.startsWith("ENV ")) {
                given.add(line.substring(4).split("=", 2)[0].strip());
            }
        }
        Matcher placeholder = Pattern.compile("\\$\\{([A-Z0-9_]+)}").matcher(template);
        while (placeholder.find()) {
            assertTrue(
                    given.contains(placeholder.group(1)),
                    "configs/connect/worker.properties needs " + placeholder.group(1)
                            + ", which neither the connect service nor its image sets");
        }
        assertEquals(
                "60000",
                ComposeFile.normalized()
                        .path("services")
                        .path("connect")
                        .path("environment")
                        .path("COMMIT_INTERVAL_MS")
                        .asText(),
                "Connect's own offset.flush.interval.ms unless KCSCALE_COMMIT_INTERVAL_MS says otherwise");
        assertEquals(
                "1000",
                ComposeFile.normalized(Map.of("KCSCALE_COMMIT_INTERVAL_MS", "1000"))
                        .path("services")
                        .path("connect")
                        .path("environment")
                        .path("COMMIT_INTERVAL_MS")
                        .asText());
    }

    @Test
    void everyPublishedPortListensOnLoopbackUnlessTheUserSaysOtherwise() {
        // Kafka, Connect and Elasticsearch take no credentials in compose: on another interface anyone
        // could change tasks.max behind the scaler's token
        assertEquals(Set.of("127.0.0.1"), publishAddresses(Map.of("KCSCALE_PUBLISH_ADDRESS", "")));
        assertEquals(Set.of("0.0.0.0"), publishAddresses(Map.of("KCSCALE_PUBLISH_ADDRESS", "0.0.0.0")));
    }

    private static Set<String> publishAddresses(Map<String, String> env) {
        Set<String> addresses = new HashSet<>();
        int ports = 0;
        for (JsonNode service : ComposeFile.normalized(env).path("services")) {
            for (JsonNode port : service.path("ports")) {
                addresses.add(port.path("host_ip").asText("(every interface)"));
                ports++;
            }
        }
        assertTrue(ports >= 7, "compose publishes the pipeline's ports: " + ports);
        return addresses;
    }

    @Test
    void prometheusScrapesComposeServices() throws IOException {
        JsonNode services = ComposeFile.normalized().path("services");
        try (Stream<Path> files = Files.list(HOME.resolve("compose/prometheus/targets"))) {
            for (Path file : files.toList()) {
                for (JsonNode group : RepositoryFiles.json(file)) {
                    for (JsonNode target : group.path("targets")) {
                        String host = target.asText().split(":")[0];
                        assertTrue(
                                services.has(host),
                                file.getFileName() + " names " + target.asText() + ", no compose service");
                    }
                }
            }
        }
    }

    /** The paths a "send nothing but" ignore file lets through: its {@code !} lines after a leading {@code *}. */
    private static List<String> ignoreFileExceptions(Path ignoreFile) throws IOException {
        List<String> lines = Files.readAllLines(ignoreFile).stream()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList();
        assertEquals("*", lines.get(0), ignoreFile.getFileName() + " starts by excluding everything");
        return lines.stream()
                .filter(l -> l.startsWith("!"))
                .map(l -> l.substring(1))
                .toList();
    }

    private static boolean matchesSomething(String path) throws IOException {
        if (!path.contains("*")) {
            return Files.exists(HOME.resolve(path));
        }
        Path dir = HOME.resolve(path).getParent();
        var glob = FileSystems.getDefault().getPathMatcher("glob:" + HOME.resolve(path));
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(glob::matches);
        }
    }
}
