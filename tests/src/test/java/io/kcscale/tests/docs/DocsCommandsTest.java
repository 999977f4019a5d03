package io.kcscale.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ./kcscale VERB ...} line in a fenced block of README.md and docs/*.md names a verb (and for
 * {@code predict}, {@code bench} and {@code experiment} a sub-verb) that exists, and every {@code --flag} on it
 * is one that verb's {@code --help} lists. The built {@code ./kcscale} answers, one {@code --help} per verb,
 * a few at a time. A {@code bin/kcscale VERB ...} line is the release's (dist/src/bin/kcscale): its verb must be one
 * the release runs, its flags the same verb's.
 */
class DocsCommandsTest {

    /** A command as the docs write it: where, the verb path ("predict tasks"), its flags, and whether the release's. */
    record Command(String where, String verb, List<String> flags, boolean release) {}

    /** Verbs of the kcscale script itself, with no --help of their own. */
    private static final Set<String> SCRIPT_VERBS = Set.of("build", "build-cli-archive", "test", "dist");

    /** How the docs call the checkout's script and the release's: the release's runs fewer verbs. */
    private static final Map<String, Boolean> SCRIPTS = Map.of("./kcscale ", false, "bin/kcscale ", true);

    private static final Set<String> WITH_SUB_VERBS = Set.of("predict", "bench", "experiment");
    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])--[a-z0-9][a-z0-9-]*");
    private static final Pattern END = Pattern.compile("\\s(#|\\||&&|;|>|2>|<)(\\s|$)|`");

    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final Map<String, Future<Commands.Result>> HELP = new ConcurrentHashMap<>();

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @Test
    void everyDocumentedCommandUsesAVerbAndFlagsThatExist() {
        List<Command> commands = new ArrayList<>();
        for (Path page : DocsPages.pages()) {
            for (DocsPages.Block block : DocsPages.blocks(page)) {
                commands.addAll(commands(block));
            }
        }
        assertTrue(
                commands.size() > 40, "the docs show " + commands.size() + " ./kcscale commands: the reader lost them");
        assertEquals(List.of(), problems(commands), "commands in the docs that kcscale does not have");
    }

    @Test
    void everyVerbOfTheReadmesVerbListAnswersItsHelp() {
        List<String> lines = DocsPages.lines(RepositoryFiles.home().resolve("README.md"));
        int start = lines.indexOf("## Verbs");
        assertTrue(start >= 0, "README.md has a ## Verbs section");
        Set<String> verbs = new LinkedHashSet<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            Matcher m = Pattern.compile("^\\| `([a-z-]+)` \\|").matcher(line);
            if (m.find()) {
                verbs.add(m.group(1));
            }
        }
        assertEquals(
                new TreeSet<>(List.of(
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
                        "predict")),
                new TreeSet<>(verbs),
                "the README's verb list");
        List<String> failing = new ArrayList<>();
        verbs.forEach(this::help);
        for (String verb : verbs) {
            Commands.Result r = help(verb);
            if (r.exit() != 0) {
                failing.add(verb + ": exit " + r.exit() + ": " + r.output());
            }
        }
        assertEquals(List.of(), failing);
    }

    /** The checker itself: an unknown flag, an unknown verb and an unknown sub-verb are each reported. */
    @Test
    void theCheckerReportsWhatDoesNotExist() {
        DocsPages.Block block = new DocsPages.Block(
                RepositoryFiles.home().resolve("README.md"),
                1,
                "sh",
                String.join(
                        "\n",
                        "$ ./kcscale scale stocks-es-sink --tasks 2 --no-such-flag   # a comment --not-a-flag",
                        "./kcscale frobnicate --now",
                        "./kcscale predict \\",
                        "    nothing --target-rate 1",
                        "./kcscale build"));
        List<Command> commands = commands(block);
        assertEquals(
                List.of("scale", "frobnicate", "predict nothing", "build"),
                commands.stream().map(Command::verb).toList());
        assertEquals(List.of("--tasks", "--no-such-flag"), commands.get(0).flags());
        List<String> problems = problems(commands);
        assertEquals(3, problems.size(), String.join("\n", problems));
        assertTrue(problems.get(0).contains("--no-such-flag"), problems.get(0));
        assertTrue(problems.get(1).contains("frobnicate"), problems.get(1));
        assertTrue(problems.get(2).contains("predict nothing"), problems.get(2));

        DocsPages.Block release = new DocsPages.Block(
                RepositoryFiles.home().resolve("docs/install.md"),
                1,
                "sh",
                "kcscale-0.1.0/bin/kcscale bench connectors\n/opt/kcscale/bin/kcscale status s --json\n");
        List<String> refused = problems(commands(release));
        assertEquals(1, refused.size(), String.join("\n", refused));
        assertTrue(refused.get(0).contains("the release's bin/kcscale has no verb bench"), refused.get(0));
    }

    static List<Command> commands(DocsPages.Block block) {
        List<Command> commands = new ArrayList<>();
        String[] lines = block.text().replaceAll("\\\\\\n\\s*", " ").split("\n");
        for (String line : lines) {
            for (Map.Entry<String, Boolean> script : SCRIPTS.entrySet()) {
                commands.addAll(commands(block, line, script.getKey(), script.getValue()));
            }
        }
        return commands;
    }

    private static List<Command> commands(DocsPages.Block block, String line, String script, boolean release) {
        List<Command> commands = new ArrayList<>();
        int at = line.indexOf(script);
        while (at >= 0) {
            String rest = line.substring(at + script.length());
            Matcher end = END.matcher(rest);
            String command = end.find() ? rest.substring(0, end.start()) : rest;
            List<String> tokens = Arrays.stream(
                            command.replace("[", " ").replace("]", " ").trim().split("\\s+"))
                    .filter(t -> !t.isEmpty())
                    .toList();
            if (!tokens.isEmpty()) {
                String verb = tokens.get(0);
                if (WITH_SUB_VERBS.contains(verb)
                        && tokens.size() > 1
                        && !tokens.get(1).startsWith("-")) {
                    verb += " " + tokens.get(1);
                }
                List<String> flags = new ArrayList<>();
                Matcher f = FLAG.matcher(command);
                while (f.find()) {
                    flags.add(f.group());
                }
                commands.add(new Command(block.where(), verb, flags, release));
            }
            at = line.indexOf(script, at + 1);
        }
        return commands;
    }

    private List<String> problems(List<Command> commands) {
        commands.stream()
                .map(Command::verb)
                .filter(v -> !SCRIPT_VERBS.contains(v))
                .distinct()
                .forEach(this::help);
        List<String> problems = new ArrayList<>();
        for (Command c : commands) {
            if (c.release() && releaseRefuses().contains(c.verb().split(" ")[0])) {
                problems.add(c.where() + ": the release's bin/kcscale has no verb " + c.verb());
                continue;
            }
            if (SCRIPT_VERBS.contains(c.verb())) {
                if (!c.flags().isEmpty()) {
                    problems.add(
                            c.where() + ": ./kcscale " + c.verb() + " takes no flags, the docs give it " + c.flags());
                }
                if (!script().contains("\n  " + c.verb() + ")")) {
                    problems.add(c.where() + ": the kcscale script has no verb " + c.verb());
                }
                continue;
            }
            Commands.Result help = help(c.verb());
            if (help.exit() != 0) {
                problems.add(c.where() + ": ./kcscale " + c.verb() + " --help exits " + help.exit() + ": no such verb");
                continue;
            }
            if (WITH_SUB_VERBS.contains(c.verb())) {
                problems.add(c.where() + ": ./kcscale " + c.verb() + " needs a sub-verb");
                continue;
            }
            Set<String> known = new TreeSet<>();
            Matcher f = FLAG.matcher(help.output());
            while (f.find()) {
                known.add(f.group());
            }
            for (String flag : c.flags()) {
                if (!known.contains(flag)) {
                    problems.add(c.where() + ": ./kcscale " + c.verb() + " has no flag " + flag + " (its --help lists "
                            + known + ")");
                }
            }
        }
        return problems;
    }

    private Commands.Result help(String verb) {
        Future<Commands.Result> f = HELP.computeIfAbsent(
                verb,
                v -> POOL.submit(() -> {
                    List<String> command = new ArrayList<>();
                    command.add(RepositoryFiles.home().resolve("kcscale").toString());
                    command.addAll(List.of(v.split(" ")));
                    command.add("--help");
                    return Commands.run(RepositoryFiles.home(), Duration.ofMinutes(3), Map.of(), command);
                }));
        try {
            return f.get();
        } catch (Exception e) {
            throw new AssertionError("./kcscale " + verb + " --help did not run", e);
        }
    }

    /** The verbs the release's script refuses, as its one case for them lists them. */
    private static Set<String> releaseRefuses() {
        try {
            Matcher refused = Pattern.compile("(?m)^  ((?:[a-z-]+\\|)+[a-z-]+)\\)\\n.*not part of the release")
                    .matcher(Files.readString(RepositoryFiles.home().resolve("dist/src/bin/kcscale")));
            assertTrue(refused.find(), "dist/src/bin/kcscale has no case refusing the checkout's verbs");
            return Set.of(refused.group(1).split("\\|"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String script() {
        try {
            return Files.readString(RepositoryFiles.home().resolve("kcscale"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
