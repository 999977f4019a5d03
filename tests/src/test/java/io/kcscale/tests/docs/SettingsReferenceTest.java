package io.kcscale.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kcscale.scaler.service.Setting;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The settings tables of docs/own-pipeline.md (every setting) and docs/security.md (the secrets) are what
 * {@link Setting} renders to, between their markers. After adding or changing a setting, regenerate them with
 * {@code -Dkcscale.docs.write=true}.
 */
class SettingsReferenceTest {

    private static final String REGENERATE = "mvn -B -o -pl tests -am verify -Dtest=SettingsReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dkcscale.docs.write=true";
    private static final String END = "<!-- end of the generated table -->";

    @Test
    void ownPipelineListsEverySetting() throws IOException {
        check(RepositoryFiles.home().resolve("docs/own-pipeline.md"), "settings", SettingsReferenceTest::settingsTable);
    }

    @Test
    void securityListsEverySecret() throws IOException {
        check(RepositoryFiles.home().resolve("docs/security.md"), "secrets", SettingsReferenceTest::secretsTable);
    }

    /** The rule the names follow, held for every setting, so that a new one cannot break it unnoticed. */
    @Test
    void flagsAndEnvironmentNamesFollowTheKeys() {
        for (Setting s : Setting.values()) {
            switch (s.kind()) {
                case FAMILY -> assertTrue(s.key().endsWith("."), s.key());
                case LIST -> assertEquals("--" + s.key().replace('.', '-'), s.flag() + "s");
                default -> assertEquals("--" + s.key().replace('.', '-'), s.flag());
            }
            assertEquals(s.secret(), s.environment().isPresent(), s.key());
            s.environment()
                    .ifPresent(e -> assertEquals(
                            "KCSCALE_"
                                    + s.key().toUpperCase(java.util.Locale.ROOT).replace('.', '_'),
                            e));
        }
    }

    static String settingsTable() {
        StringBuilder md = new StringBuilder();
        for (Setting.Group group : Setting.Group.values()) {
            md.append("\n**")
                    .append(group.title())
                    .append("**\n\n| key | flag | default | what it is |\n|---|---|---|---|\n");
            for (Setting s : Setting.values()) {
                if (s.group() == group) {
                    String key = s.kind() == Setting.Kind.FAMILY
                            ? s.named().substring(0, s.named().indexOf(' '))
                            : s.key();
                    String flag = s.kind() == Setting.Kind.FAMILY || s.kind() == Setting.Kind.LIST
                            ? s.flag() + " " + s.label() + "` (repeatable)"
                            : s.flag() + "`";
                    String secret = s.secret()
                            ? "; a secret: also `" + s.fileKey() + "`, `" + s.fileFlag() + "` or `"
                                    + s.environment().orElseThrow() + "` (see [Secrets](security.md#secrets))"
                            : "";
                    md.append("| `")
                            .append(key)
                            .append("` | `")
                            .append(flag)
                            .append(" | ")
                            .append(s.defaults().replace("<", "\\<"))
                            .append(" | ")
                            .append(s.description())
                            .append(secret)
                            .append(" |\n");
                }
            }
        }
        String old = Arrays.stream(Setting.values())
                .filter(s -> !s.oldFlags().isEmpty())
                .map(s -> s.oldFlags().stream()
                        .map(o -> "`" + o + "` for `" + s.flag() + "`")
                        .collect(Collectors.joining(", ")))
                .collect(Collectors.joining(", "));
        String oldEnvironment = Arrays.stream(Setting.values())
                .filter(s -> s.oldEnvironment().isPresent())
                .map(s -> "`" + s.oldEnvironment().get() + "` for `"
                        + s.environment().orElseThrow() + "`")
                .collect(Collectors.joining(", "));
        md.append("\nEarlier spellings are still read, each with one line on stderr naming the new one: ")
                .append(old)
                .append(" (and each secret's `-file` flag alike), and ")
                .append(oldEnvironment)
                .append(".\n");
        return md.toString();
    }

    static String secretsTable() {
        StringBuilder md = new StringBuilder("\n| secret | flag | file | environment |\n|---|---|---|---|\n");
        for (Setting s : Setting.secrets()) {
            md.append("| ")
                    .append(s.description())
                    .append(" (`")
                    .append(s.key())
                    .append("`) | `")
                    .append(s.flag())
                    .append("` | `")
                    .append(s.fileFlag())
                    .append("` (`")
                    .append(s.fileKey())
                    .append("`) | `")
                    .append(s.environment().orElseThrow())
                    .append("` |\n");
        }
        return md.toString();
    }

    /** The text between {@code <!-- NAME table: ... -->} and the end marker is what {@code render} gives. */
    private static void check(Path page, String name, Supplier<String> render) throws IOException {
        String text = Files.readString(page);
        String begin = "<!-- " + name
                + " table: generated from Setting.java by SettingsReferenceTest; do not edit by hand -->";
        int from = text.indexOf(begin);
        int to = text.indexOf(END, Math.max(from, 0));
        if (from < 0 || to < 0) {
            fail(page + " lacks the markers of the " + name + " table: " + begin + " ... " + END);
        }
        String written = text.substring(from + begin.length(), to);
        String rendered = render.get();
        if (!written.equals(rendered)) {
            if (Boolean.getBoolean("kcscale.docs.write")) {
                Files.writeString(page, text.substring(0, from + begin.length()) + rendered + text.substring(to));
                return;
            }
            List<String> a = written.lines().toList();
            List<String> b = rendered.lines().toList();
            int line = 0;
            while (line < Math.min(a.size(), b.size()) && a.get(line).equals(b.get(line))) {
                line++;
            }
            fail(page.getFileName() + "'s " + name + " table differs from Setting.java (line " + (line + 1)
                    + " of the table: " + (line < b.size() ? b.get(line) : "(end)") + "); regenerate it with: "
                    + REGENERATE);
        }
    }
}
