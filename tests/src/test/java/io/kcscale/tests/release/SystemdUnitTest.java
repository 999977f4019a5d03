package io.kcscale.tests.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.service.ServeCommand;
import io.kcscale.tests.docs.DocsPages;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.ReleaseArtifact;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The systemd unit as docs/vm.md installs it: the page's installing and upgrading steps run in an empty root folder
 * (every absolute path under it; {@code apt-get} and {@code systemctl} left out, as no systemd runs as init here), then
 * {@code systemd-analyze verify --root} loads the unit they installed, with the page's drop-ins, as systemd would, and
 * finds the command it starts. A warning counts as a failure; a broken copy of the unit must be refused.
 */
class SystemdUnitTest {

    private static final Path PAGE = RepositoryFiles.home().resolve("docs/vm.md");
    private static final Path UNIT = RepositoryFiles.home().resolve("dist/src/systemd/kcscale.service");
    /** A version the page names, {@code kcscale-0.1.0}, or its tarball, {@code kcscale-0.1.0.tar.gz}. */
    private static final Pattern PAGE_VERSION = Pattern.compile("kcscale-\\d+\\.\\d+\\.\\d+(\\.tar\\.gz)?");

    @Test
    void thePagesStepsInstallAUnitThatSystemdVerifiesWithItsDropIns(@TempDir Path root) throws IOException {
        // the folders every Debian machine has
        Files.createDirectories(root.resolve("opt"));
        Files.createDirectories(root.resolve("etc/systemd/system"));
        runSteps(root, block("sh", "systemctl enable --now kcscale"));
        runSteps(root, block("sh", "systemctl restart kcscale"));
        Path unit = root.resolve("etc/systemd/system/kcscale.service");
        assertEquals(Files.readString(UNIT), Files.readString(unit), "the page installs the release's unit");
        assertTrue(Files.isExecutable(root.resolve("opt/kcscale/bin/kcscale")), "the link finds the release");
        assertEquals(
                64, Files.readString(root.resolve("etc/kcscale/token")).strip().length(), "a token of 32 bytes, hex");
        withSystemdsOwnUnits(root);
        assertEquals("", verify(root, unit), "the unit as installed");

        int dropIns = 0;
        for (DocsPages.Block ini : DocsPages.blocks(PAGE).stream()
                .filter(b -> b.language().equals("ini"))
                .toList()) {
            String path = ini.text().lines().findFirst().orElse("").replaceFirst("^#\\s*", "");
            assertTrue(path.startsWith("/etc/systemd/system/kcscale.service.d/"), ini.where() + ": " + path);
            Path dropIn = root.resolve(path.substring(1));
            Files.createDirectories(dropIn.getParent());
            Files.writeString(dropIn, ini.text());
            serveFlagsAreServes(ini.text(), ini.where());
            dropIns++;
        }
        assertTrue(dropIns >= 2, "the page's drop-ins: " + dropIns);
        assertEquals("", verify(root, unit), "the unit with the page's drop-ins");
    }

    @Test
    void aBrokenUnitIsRefused(@TempDir Path root) throws IOException {
        withSystemdsOwnUnits(root);
        Path release = ReleaseArtifact.unpack(Files.createDirectories(root.resolve("opt")));
        Files.createSymbolicLink(root.resolve("opt/kcscale"), release.getFileName());
        Path units = Files.createDirectories(root.resolve("etc/systemd/system"));
        String text = Files.readString(UNIT);
        assertTrue(text.contains("\nRestart=on-failure\n"));
        Files.writeString(
                units.resolve("misspelt.service"), text.replace("\nRestart=on-failure\n", "\nRestrat=on-failure\n"));
        assertTrue(verify(root, units.resolve("misspelt.service")).contains("Restrat"));
        Files.writeString(
                units.resolve("missing.service"), text.replace("/opt/kcscale/bin/kcscale", "/opt/kcscale/bin/kcscal"));
        assertTrue(verify(root, units.resolve("missing.service")).contains("kcscal"));
    }

    /** Every flag of the unit's command is serve's, and each credential it reads ({@code %d/NAME}) the unit loads. */
    @Test
    void theUnitsCommandUsesServesFlagsAndLoadsEveryCredentialItReads() throws IOException {
        String unit =
                Files.readString(UNIT).lines().filter(l -> !l.startsWith("#")).collect(Collectors.joining("\n"));
        serveFlagsAreServes(unit, "kcscale.service");
        Set<String> loaded = new TreeSet<>();
        Matcher load = Pattern.compile("(?m)^LoadCredential=([^:]+):").matcher(unit);
        while (load.find()) {
            loaded.add(load.group(1));
        }
        Set<String> read = new TreeSet<>();
        Matcher ref = Pattern.compile("%d/([\\w.-]+)").matcher(unit);
        while (ref.find()) {
            read.add(ref.group(1));
        }
        assertFalse(read.isEmpty());
        assertEquals(loaded, read);
        assertTrue(unit.contains("\nDynamicUser=yes\n"), "no user of the machine's runs it");
    }

    /** The lines of the page's {@code sh} block that holds {@code marker}. */
    private static List<String> block(String language, String marker) {
        return DocsPages.blocks(PAGE).stream()
                .filter(b -> b.language().equals(language) && b.text().contains(marker))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/vm.md has no " + language + " block with " + marker))
                .text()
                .lines()
                .toList();
    }

    /** Runs the page's steps with every absolute path under {@code root}, this build's tarball for the page's. */
    private static void runSteps(Path root, List<String> steps) {
        List<String> script = new ArrayList<>(List.of("set -euo pipefail"));
        for (String step : steps) {
            if (step.startsWith("apt-get ") || step.startsWith("systemctl ")) {
                continue;
            }
            String line = PAGE_VERSION
                    .matcher(step)
                    .replaceAll(m -> Matcher.quoteReplacement(
                            m.group(1) == null
                                    ? "kcscale-" + ReleaseArtifact.version()
                                    : ReleaseArtifact.tarball().toString()))
                    .replace(" /opt", " " + root + "/opt")
                    .replace(" /etc", " " + root + "/etc");
            script.add(line);
        }
        Commands.runOk(root, Duration.ofMinutes(2), List.of("bash", "-c", String.join("\n", script)));
    }

    /** systemd's own units (the targets the unit is ordered after) in the root, as on a machine with systemd. */
    private static void withSystemdsOwnUnits(Path root) throws IOException {
        Files.createDirectories(root.resolve("usr/lib/systemd"));
        Commands.runOk(
                root,
                Duration.ofMinutes(1),
                List.of(
                        "cp",
                        "-r",
                        "/usr/lib/systemd/system",
                        root.resolve("usr/lib/systemd").toString()));
    }

    /** What {@code systemd-analyze verify} says of the unit in the root: nothing when it has no complaint. */
    private static String verify(Path root, Path unit) {
        Commands.Result r = Commands.run(
                root,
                Duration.ofMinutes(1),
                Map.of(),
                List.of("systemd-analyze", "verify", "--root=" + root, unit.toString()));
        if (r.exit() != 0) {
            assertNotEquals("", r.output().strip(), "systemd-analyze verify failed without a word");
        }
        return r.output().strip();
    }

    private static void serveFlagsAreServes(String text, String where) {
        CommandLine serve = new CommandLine(ServeCommand.newSpec());
        Matcher exec = Pattern.compile("(?m)^ExecStart=(\\S+) serve (.*)$").matcher(text);
        int commands = 0;
        while (exec.find()) {
            commands++;
            assertEquals("/opt/kcscale/bin/kcscale", exec.group(1), where);
            for (String arg : exec.group(2).split("\\s+")) {
                String flag = arg.split("=", 2)[0];
                assertNotNull(serve.getCommandSpec().findOption(flag), where + ": " + flag + " is not a flag of serve");
                assertNotEquals("--token", flag, where + ": a token on the command line shows in ps");
            }
        }
        if (text.contains("ExecStart=/")) {
            assertTrue(commands >= 1, where);
        }
    }
}
