package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Debian's Chromium, run headless and offline to render pages the way a person's browser would. */
final class HeadlessChromium {

    static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_SECONDS = 90;

    private final Path workDir;

    HeadlessChromium(Path workDir) {
        assertTrue(
                Files.isExecutable(BINARY),
                BINARY + " is missing: install Chromium with"
                        + " 'apt-get update && apt-get install -y chromium' to render the charts");
        this.workDir = workDir;
    }

    /** A PNG of {@code page} in a 1000 x 700 window. */
    Path screenshot(Path page) throws IOException, InterruptedException {
        Path png = workDir.resolve(page.getFileName() + ".png");
        run("--screenshot=" + png, "--window-size=1000,700", page.toUri().toString());
        assertTrue(Files.size(png) > 0, "no screenshot written");
        return png;
    }

    /** The page's DOM after its scripts ran. */
    String dumpDom(Path page) throws IOException, InterruptedException {
        return run("--dump-dom", page.toUri().toString());
    }

    private String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                BINARY.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--user-data-dir=" + Files.createTempDirectory(workDir, "profile")));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "chromium", ".out");
        Path err = Files.createTempFile(workDir, "chromium", ".err");
        Process chromium = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!chromium.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            chromium.destroyForcibly();
            fail("Chromium did not finish in " + TIMEOUT_SECONDS + " s: " + Files.readString(err));
        }
        assertEquals(0, chromium.exitValue(), () -> "Chromium failed: " + readQuietly(err));
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
