package io.kcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code kcscale --help} names every verb of the one tool, whichever JVM runs it; {@code --version} is the build's. */
class KcscaleHelpTest {

    private static final List<String> EVERY_VERB = List.of(
            "up",
            "down",
            "load",
            "bench",
            "experiment",
            "serve",
            "status",
            "check",
            "scale",
            "autoscale",
            "decisions",
            "predict",
            "build",
            "test",
            "dist",
            "help");

    @Test
    void helpListsEveryVerbOnceWithALineOfItsOwnUnderItsGroup() {
        CliRun run = CliRun.of("--help");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        for (String verb : EVERY_VERB) {
            assertEquals(
                    1,
                    lines.stream()
                            .filter(line -> line.matches("    " + verb + " +\\S.*"))
                            .count(),
                    verb + " in\n" + run.out());
        }
        assertTrue(lines.stream().allMatch(line -> line.length() <= 80), run.out());
        List<String> order = List.of(
                "Local stack",
                "    up ",
                "Lab",
                "    bench ",
                "Scaler service",
                "    serve ",
                "Live verbs",
                "    status ",
                "Predictions",
                "    predict ");
        int at = -1;
        for (String text : order) {
            int next = run.out().indexOf(text);
            assertTrue(next > at, text + " out of place in\n" + run.out());
            at = next;
        }
    }

    @Test
    void everyVerbTheScriptDispatchesElsewhereIsInTheHelp() throws IOException {
        String script = Files.readString(Path.of(System.getProperty("kcscale.home"), "kcscale"));
        Matcher dispatch =
                Pattern.compile("(?m)^  ([a-z|]+)\\)\\s+module=(?!scaler/cli)").matcher(script);
        List<String> dispatched = dispatch.results()
                .flatMap(m -> Arrays.stream(m.group(1).split("\\|")))
                .toList();
        assertEquals(List.of("up", "down", "load", "bench", "experiment", "serve"), dispatched);
        // and the verbs the script runs itself, before any JVM (build-cli-archive is the build's own step)
        Matcher own = Pattern.compile("(?m)^  ([a-z-]+)\\)(?!\\s+module=)").matcher(script);
        List<String> ownVerbs = own.results()
                .map(m -> m.group(1))
                .filter(verb -> !verb.equals("build-cli-archive"))
                .toList();
        assertEquals(List.of("build", "test", "dist"), ownVerbs);
        String help = CliRun.of("--help").out();
        dispatched.forEach(verb -> assertTrue(help.contains("    " + verb + " "), verb));
        ownVerbs.forEach(verb -> assertTrue(help.contains("    " + verb + " "), verb));
    }

    /** The release's script runs only the scaler's verbs, and says so: its help lists no verb of a checkout's. */
    @Test
    void theReleasesHelpListsOnlyTheScalersVerbs() {
        String release;
        System.setProperty(VerbIndex.RELEASE_PROPERTY, "true");
        try {
            release = CliRun.of("--help").out();
        } finally {
            System.clearProperty(VerbIndex.RELEASE_PROPERTY);
        }
        for (String verb : EVERY_VERB) {
            boolean checkoutOnly = List.of("up", "down", "load", "bench", "experiment", "build", "test", "dist")
                    .contains(verb);
            assertEquals(!checkoutOnly, release.contains("    " + verb + " "), verb + " in\n" + release);
        }
        assertTrue(CliRun.of("--help").out().contains("    bench "), "a checkout's help lists the lab again");
    }

    @Test
    void versionIsTheBuildsOne() {
        CliRun run = CliRun.of("--version");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().matches("kcscale \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), run.out());
    }
}
