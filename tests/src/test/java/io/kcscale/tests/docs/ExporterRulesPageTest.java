package io.kcscale.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kcscale.local.InstallLayout;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.FreePort;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.WorkerExporters;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/your-cluster.md shows the exporter rules a worker needs "as they are in" configs/jmx-exporter/connect-worker.yml:
 * each of its {@code includeObjectNames} and rules is one of the file's, which the shared stack's workers run and
 * {@code LiveCapacityTest} and {@code MetricsProducedTest} read; and each series its table names is one a rule of the
 * page makes. So a reader who copies the page's rules gets what the scaler reads. The page's {@code KAFKA_OPTS} line
 * is run as far as this machine allows: no {@code connect-distributed.sh} here, so the same {@code -javaagent}
 * argument (the agent the repository builds, the file's rules, a free port for 9404) goes to a JVM of its own, whose
 * exporter must then answer the JVM's series the rules make.
 */
class ExporterRulesPageTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path PAGE = RepositoryFiles.home().resolve("docs/your-cluster.md");
    private static final Path RULES = RepositoryFiles.home().resolve("configs/jmx-exporter/connect-worker.yml");
    /** The agent's argument, {@code [host:]port:rules}, as jmx_exporter 1.0.1's JavaAgent parses it. */
    private static final Pattern AGENT = Pattern.compile("-javaagent:(\\S+?)=(?:([\\w.-]+):)?(\\d{1,5}):([^\\s\"]+)");

    private static String pageRulesText() {
        List<DocsPages.Block> blocks = DocsPages.blocks(PAGE).stream()
                .filter(b -> b.language().equals("yaml") && b.text().contains("rules:"))
                .toList();
        assertEquals(1, blocks.size(), "one block of exporter rules in " + PAGE);
        return blocks.get(0).text();
    }

    private static JsonNode pageRules() throws IOException {
        return YAML.readTree(pageRulesText());
    }

    @Test
    void thePagesRulesAreTheFilesAsTheyAre() throws IOException {
        JsonNode page = pageRules();
        JsonNode file = YAML.readTree(Files.readString(RULES));
        page.fieldNames().forEachRemaining(key -> {
            if (!key.equals("includeObjectNames") && !key.equals("rules")) {
                assertEquals(file.path(key), page.path(key), key + " as the file has it");
            }
        });
        List<JsonNode> fileNames = new ArrayList<>();
        file.path("includeObjectNames").forEach(fileNames::add);
        page.path("includeObjectNames")
                .forEach(n -> assertTrue(fileNames.contains(n), n + " is not among the file's includeObjectNames"));
        List<JsonNode> fileRules = new ArrayList<>();
        file.path("rules").forEach(fileRules::add);
        assertTrue(page.path("rules").size() >= 5, page.toString());
        int before = -1;
        for (JsonNode rule : page.path("rules")) {
            int at = fileRules.indexOf(rule);
            assertTrue(at >= 0, "not a rule of " + RULES + ": " + rule);
            assertTrue(at > before, "the page keeps the file's order, which decides the first match: " + rule);
            before = at;
        }
    }

    @Test
    void thePagesAgentArgumentStartsTheExporterWithTheFilesRules(@TempDir Path dir) throws Exception {
        List<String> options = DocsPages.blocks(PAGE).stream()
                .filter(b -> b.language().equals("sh"))
                .flatMap(b -> b.text().lines())
                .filter(l -> l.contains("-javaagent:"))
                .toList();
        assertEquals(1, options.size(), "one line that attaches the agent: " + options);
        Matcher agent = AGENT.matcher(options.get(0));
        assertTrue(agent.find(), "-javaagent:JAR=[HOST:]PORT:RULES in " + options.get(0));
        assertEquals(
                RULES.getFileName().toString(),
                Path.of(agent.group(4)).getFileName().toString(),
                "rules file");
        // the page's own rules, as a reader copies them
        Path rules = Files.writeString(dir.resolve(RULES.getFileName().toString()), pageRulesText());
        Path jar = new InstallLayout(RepositoryFiles.home()).jmxExporterAgent();
        assertTrue(Files.isRegularFile(jar), jar + " is built by the package phase");
        int port = FreePort.any();
        String hostPort = (agent.group(2) == null ? "" : agent.group(2) + ":") + port;
        Path main = Files.writeString(
                dir.resolve("Wait.java"),
                "class Wait { public static void main(String[] a) throws Exception {" + " System.in.read(); } }");
        Process jvm = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-javaagent:" + jar + "=" + hostPort + ":" + rules,
                        main.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("jvm.log").toFile())
                .start();
        try {
            URI exporter = URI.create("http://127.0.0.1:" + port + "/metrics");
            String metrics = Poll.until(
                    "the agent's exporter on port " + port, Duration.ofSeconds(60), Duration.ofMillis(250), () -> {
                        if (!jvm.isAlive()) {
                            throw new Poll.Abort(
                                    "the JVM exited " + jvm.exitValue() + ": " + read(dir.resolve("jvm.log")));
                        }
                        return Optional.of(WorkerExporters.scrape(exporter));
                    });
            for (String series : List.of(
                    "process_cpu_seconds_total",
                    "java_lang_operatingsystem_availableprocessors",
                    "java_lang_operatingsystem_cpuload")) {
                assertTrue(metrics.contains("\n" + series + " "), series + " is not in what the agent answers");
            }
        } finally {
            jvm.destroy();
            if (!jvm.waitFor(10, TimeUnit.SECONDS)) {
                jvm.destroyForcibly();
            }
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Test
    void everySeriesTheTableNamesIsOneARuleOfThePageMakes() throws IOException {
        List<Pattern> made = new ArrayList<>();
        for (JsonNode rule : pageRules().path("rules")) {
            // a name template's $n parts stand for what the pattern captured: lower-case words and dashes, made
            // underscores by the exporter
            made.add(Pattern.compile(
                    rule.path("name").asText().replaceAll("\\$\\d", "[a-z_]+").toLowerCase()));
        }
        List<String> table = Files.readAllLines(PAGE).stream()
                .filter(l -> l.startsWith("| ") && (l.contains("`kafka_") || l.contains("`java_")))
                .toList();
        assertTrue(table.size() >= 3, "the table of series");
        Matcher series = Pattern.compile("`((kafka|java)_[a-z_]+)").matcher(String.join("\n", table));
        int named = 0;
        while (series.find()) {
            String name = series.group(1);
            named++;
            assertTrue(
                    made.stream().anyMatch(p -> p.matcher(name).matches()), name + " is made by no rule of the page");
        }
        assertTrue(named >= 8, named + " series named");
    }
}
