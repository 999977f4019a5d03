package io.kcscale.tests.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.service.Setting;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.FreePort;
import io.kcscale.tests.fixtures.ReleaseArtifact;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SharedStack;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release as a user gets it: {@code kcscale-VERSION.tar.gz} unpacked into an empty folder and run with a JRE
 * alone (an empty {@code HOME}, no {@code mvn} on the {@code PATH}, nothing of the checkout). Its {@code bin/kcscale
 * serve}, with the release's own example settings file pointed at the shared stack, observes the sink; its own CLI
 * gets the snapshot, the checks and a prediction. And what the tarball holds: the jars each JVM loads, the settings
 * file, the licences of every bundled jar.
 */
@Order(9)
@ExtendWith(SharedStack.class)
class ReleaseArtifactTest {

    private static final Duration CLI = Duration.ofMinutes(1);

    @TempDir
    static Path scratch;

    private static Path release;
    private static Map<String, String> bare;

    @BeforeAll
    static void unpackIntoAnEmptyFolder() throws IOException {
        Path install = Files.createDirectories(scratch.resolve("install"));
        release = ReleaseArtifact.unpack(install);
        bare = ReleaseArtifact.bareEnvironment(scratch);
    }

    @Test
    @Order(1)
    void theBareMachineHasNoMavenAndTheReleaseSaysItsVersion() {
        Commands.Result mvn = run(List.of("bash", "-c", "command -v mvn"));
        assertNotEquals(0, mvn.exit(), "mvn is on the bare PATH: " + mvn.output());
        String version = "kcscale " + ReleaseArtifact.version() + "\n";
        assertEquals(version, ok(kcscale("--version")));
        assertEquals(version, ok(kcscale("serve", "--version")));
    }

    @Test
    @Order(2)
    void itsHelpListsTheVerbsItRunsAndTheCheckoutsVerbsAreRefusedInOneLine() {
        String help = ok(kcscale("--help"));
        Set<String> verbs = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^    ([a-z-]+) ").matcher(help);
        while (m.find()) {
            verbs.add(m.group(1));
        }
        assertEquals(
                new TreeSet<>(
                        List.of("serve", "status", "check", "scale", "autoscale", "decisions", "predict", "help")),
                verbs,
                help);
        for (String verb : List.of("up", "bench", "experiment", "load", "down")) {
            Commands.Result r = run(kcscale(verb));
            assertEquals(2, r.exit(), r.output());
            assertEquals(
                    "kcscale: " + verb
                            + " is not part of the release: the local stack and the lab run from a checkout of the source\n",
                    r.output());
        }
        assertTrue(ok(kcscale("help", "serve")).contains("--kafka-bootstrap-servers"));
    }

    @Test
    @Order(3)
    void eachJvmLoadsJarsTheReleaseHoldsAndTheCliNoneOfTheServices() throws IOException {
        for (String jvm : List.of("cli", "serve")) {
            String classpath = Files.readString(release.resolve("lib/" + jvm + ".classpath"))
                    .strip();
            assertFalse(classpath.isEmpty(), jvm);
            for (String entry : classpath.split(":")) {
                assertTrue(entry.startsWith("lib/") && Files.isRegularFile(release.resolve(entry)), jvm + ": " + entry);
            }
        }
        String cli = Files.readString(release.resolve("lib/cli.classpath"));
        for (String service : List.of("kafka-clients", "elasticsearch", "kubernetes-client", "jetty", "api-0")) {
            assertFalse(cli.contains("lib/" + service), "the CLI loads " + service + ": " + cli);
        }
    }

    @Test
    @Order(4)
    void everyBundledJarHasItsLicenceNamedAndEachLicencesTextIsThere() throws IOException {
        String thirdParty = Files.readString(release.resolve("licenses/THIRD-PARTY.txt"));
        Map<String, Path> texts = licenceTexts();
        List<String> unlisted = new ArrayList<>();
        try (Stream<Path> jars = Files.list(release.resolve("lib"))) {
            for (Path jar : jars.filter(j -> j.toString().endsWith(".jar")).toList()) {
                String name = jar.getFileName().toString();
                if (!name.startsWith("kcscale-") && !listedIn(thirdParty, name)) {
                    unlisted.add(name);
                }
            }
        }
        assertEquals(List.of(), unlisted, "jars THIRD-PARTY.txt does not list");
        // each line starts with the jar's licences, "(Apache-2.0) " or "(EPL-2.0) (GPL-2.0-with-classpath-exception) "
        Pattern leading = Pattern.compile("^\\s*((?:\\([^()]+\\) )+)");
        Set<String> named = new TreeSet<>();
        for (String line :
                thirdParty.lines().filter(l -> l.startsWith("     (")).toList()) {
            Matcher m = leading.matcher(line);
            assertTrue(m.find(), line);
            for (String licence : m.group(1).strip().split("\\) ?")) {
                named.add(licence.substring(1));
            }
        }
        assertTrue(named.contains("Apache-2.0"), named.toString());
        assertEquals(
                Set.of(),
                named.stream().filter(n -> !texts.containsKey(n)).collect(Collectors.toSet()),
                "licences without a text in licenses/README.txt's list");
        texts.forEach((name, text) -> assertTrue(Files.isRegularFile(text), name + ": " + text + " is missing"));
    }

    /**
     * The changelog's newest section is this version's (without {@code -SNAPSHOT}); a released version's is dated, so
     * that a release cannot go out with its section still saying it is not released.
     */
    @Test
    @Order(5)
    void theChangelogStartsWithThisVersion() throws IOException {
        String changelog = Files.readString(release.resolve("CHANGELOG.md"));
        Matcher newest = Pattern.compile("(?m)^## (\\d+\\.\\d+\\.\\d+) (.*)$").matcher(changelog);
        assertTrue(newest.find(), "CHANGELOG.md has no version section");
        String version = ReleaseArtifact.version();
        assertEquals(version.replace("-SNAPSHOT", ""), newest.group(1), "the changelog's newest version");
        if (!version.endsWith("-SNAPSHOT")) {
            assertTrue(
                    newest.group(2).matches("\\(\\d{4}-\\d{2}-\\d{2}\\)"),
                    "a release's section has its date: " + newest.group());
        }
    }

    @Test
    @Order(5)
    void theExampleSettingsFileHoldsOnlyTheScalersKeysAndNoSecret() throws IOException {
        Properties settings = new Properties();
        settings.load(new StringReader(Files.readString(release.resolve("config/scaler.properties"))));
        assertFalse(settings.isEmpty());
        for (String key : settings.stringPropertyNames()) {
            Optional<Setting> setting = Setting.ofKey(key);
            assertTrue(setting.isPresent(), key + " is not a settings key");
            assertFalse(setting.get().secret() && key.equals(setting.get().key()), key + ": a secret's value");
        }
    }

    /**
     * The acceptance of the release: serve from the unpacked tarball on a bare machine, the example settings file
     * given the stack's addresses, then the snapshot, the checks and a prediction through the release's own CLI;
     * the token file guards the mutating routes. Nothing is written into the release's folder or the empty home.
     */
    @Test
    @Order(6)
    void servesTheStackFromTheTarballAndItsCliGetsASnapshotChecksAndAPrediction(LocalStack stack) throws Exception {
        Set<String> filesBefore = files(release);
        ReleaseArtifact.ScalerFiles files = ReleaseArtifact.scalerFiles(
                scratch,
                stack,
                Files.readString(release.resolve("config/scaler.properties")),
                null,
                "release-test",
                "rw-------");
        String token = files.secret();
        Path settings = files.settings();
        // where an earlier scaler kept policies: in the empty home, not the one the JVM would read
        Files.writeString(settings, "state.dir=" + bare.get("HOME") + "/.kcscale\n", StandardOpenOption.APPEND);

        int port = FreePort.any();
        URI url = URI.create("http://127.0.0.1:" + port);
        Path log = scratch.resolve("serve.log");
        ProcessBuilder builder = new ProcessBuilder(
                        release.resolve("bin/kcscale").toString(),
                        "serve",
                        "--config",
                        settings.toString(),
                        "--port",
                        String.valueOf(port))
                .directory(scratch.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().clear();
        builder.environment().putAll(bare);
        Process serve = builder.start();
        try {
            ScalerHttp http = new ScalerHttp(url);
            Poll.until("the release's scaler answers", Duration.ofSeconds(90), Duration.ofMillis(500), () -> {
                if (!serve.isAlive()) {
                    throw new Poll.Abort("serve exited " + serve.exitValue() + ": " + read(log));
                }
                return http.get("/api/v1/instance").status() == 200 ? Optional.of(true) : Optional.empty();
            });

            String sink = StackOptions.SINK_CONNECTOR;
            JsonNode snapshot = Poll.until(
                    "the release's status of " + sink + " with its tasks",
                    Duration.ofSeconds(90),
                    Duration.ofSeconds(1),
                    () -> {
                        JsonNode s = json(ok(kcscale("status", sink, "--scaler-url", url.toString(), "--json")));
                        if (s.path("tasks").size() > 0 && s.path("partitions").asInt() > 0) {
                            return Optional.of(s);
                        }
                        throw new IllegalStateException(s.toString());
                    });
            assertEquals(sink, snapshot.path("name").asText());
            assertEquals(
                    new ScalerHttp(stack.endpoints().scalerUrl())
                            .get("/api/v1/connectors/" + sink)
                            .body()
                            .path("partitions")
                            .asInt(),
                    snapshot.path("partitions").asInt(),
                    "the stack's own scaler and the release's read the same topic");

            Commands.Result check = run(kcscale("check", sink, "--scaler-url", url.toString(), "--json"));
            JsonNode checks = json(check.output());
            assertEquals(sink, checks.path("connector").asText());
            // check exits 1 when a finding is a warning or worse
            boolean quiet =
                    List.of("ok", "info").contains(checks.path("severity").asText());
            assertEquals(quiet ? 0 : 1, check.exit(), check.output());
            Set<String> ids = new TreeSet<>();
            checks.path("findings").forEach(f -> ids.add(f.path("id").asText()));
            assertTrue(ids.containsAll(List.of("key-cardinality", "partition-count", "index-shards")), ids.toString());

            JsonNode prediction =
                    json(ok(kcscale("predict", "tasks", "--target-rate", "10000", "--per-task-rate", "70", "--json")));
            // 10,000 / 70 = 142.9 records/s a task: 143 tasks at the least
            assertEquals(143, prediction.path("minimumTasks").asInt(), prediction.toString());

            String plan = "{\"tasks\": " + snapshot.path("tasksMax").asInt() + ", \"dryRun\": true}";
            assertEquals(
                    401,
                    http.post("/api/v1/connectors/" + sink + "/scale", plan).status(),
                    "no token, no scale");
            ScalerHttp.Answer withToken = http.post("/api/v1/connectors/" + sink + "/scale", plan, token);
            assertNotEquals(401, withToken.status(), withToken.raw());
        } finally {
            serve.destroy();
            if (!serve.waitFor(30, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
            System.out.println("[release serve] " + read(log).strip().replace("\n", "\n[release serve] "));
        }
        assertEquals(filesBefore, files(release), "serve wrote into the release's folder");
        try (Stream<Path> home = Files.list(Path.of(bare.get("HOME")))) {
            assertEquals(List.of(), home.toList(), "serve wrote into the empty home");
        }
    }

    /** The licence names the licences' README maps to their texts ({@code NAME: FILE}), each file under licenses/. */
    private static Map<String, Path> licenceTexts() throws IOException {
        Map<String, Path> texts = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^([A-Za-z0-9.-]+): (\\S+)$")
                .matcher(Files.readString(release.resolve("licenses/README.txt")));
        while (m.find()) {
            texts.put(m.group(1), release.resolve("licenses").resolve(m.group(2)));
        }
        assertTrue(texts.size() >= 3, texts.toString());
        return texts;
    }

    /** Whether THIRD-PARTY.txt names the jar: its line holds {@code group:artifact:version} of that file name. */
    private static boolean listedIn(String thirdParty, String jar) {
        String base = jar.substring(0, jar.length() - ".jar".length());
        return thirdParty.lines().anyMatch(line -> {
            Matcher gav = Pattern.compile("\\([^:()\\s]+:([^:()\\s]+):([^:()\\s]+) - ")
                    .matcher(line);
            return gav.find() && base.equals(gav.group(1) + "-" + gav.group(2));
        });
    }

    private static Set<String> files(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.map(p -> dir.relativize(p) + " " + p.toFile().length())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static List<String> kcscale(String... args) {
        List<String> command =
                new ArrayList<>(List.of(release.resolve("bin/kcscale").toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static Commands.Result run(List<String> command) {
        return Commands.runInOnly(scratch, CLI, bare, command);
    }

    private static String ok(List<String> command) {
        Commands.Result r = run(command);
        assertEquals(0, r.exit(), String.join(" ", command) + ":\n" + r.output());
        return r.output();
    }

    private static JsonNode json(String text) {
        return RepositoryFiles.json(text);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
