package io.kcscale.tests.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CLI's class-data archive through the {@code kcscale} script: {@code build-cli-archive} (which
 * {@code ./kcscale build} runs) makes it, a quick verb maps its classes from it, and an archive stamped
 * by another JVM is remade rather than breaking the call. Times nothing: tests/bench-cli-start.sh does.
 */
class CliArchiveTest {

    private static final Path HOME = RepositoryFiles.home();
    private static final Path ARCHIVE = HOME.resolve("scaler/cli/target/kcscale-cli.jsa");
    private static final Path STAMP = HOME.resolve("scaler/cli/target/kcscale-cli.jsa.jvm");
    private static final List<String> PREDICT = List.of(
            HOME.resolve("kcscale").toString(), "predict", "tasks", "--target-rate", "1000", "--per-task-rate", "300");

    @Test
    void theScriptMakesTheArchiveAndAQuickVerbLoadsItsClassesFromIt() throws IOException {
        String made = Commands.runOk(
                HOME, Duration.ofMinutes(3), List.of(HOME.resolve("kcscale").toString(), "build-cli-archive"));
        assertEquals("", made, "the archive step warned");
        assertTrue(Files.size(ARCHIVE) > 0 && Files.exists(STAMP), "no archive or no stamp");

        Path log = Files.createTempFile("kcscale-class-load", ".log");
        try {
            Commands.Result run = Commands.run(
                    HOME,
                    Duration.ofMinutes(1),
                    Map.of("KCSCALE_JAVA_OPTS", "-Xlog:class+load=info:file=" + log),
                    PREDICT);
            assertEquals(0, run.exit(), run.output());
            assertTrue(run.output().startsWith("Tasks for 1,000 records/s"), run.output());
            assertTrue(
                    Files.readString(log)
                            .contains("io.kcscale.scaler.cli.PredictTasksCommand source: shared objects file (top)"),
                    "the verb's classes were not mapped from the archive");
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Test
    void anArchiveStampedByAnotherJvmIsRemadeAndTheCallAnswersAsAlways() throws IOException {
        Commands.runOk(
                HOME, Duration.ofMinutes(3), List.of(HOME.resolve("kcscale").toString(), "build-cli-archive"));
        String plain = Commands.runOk(HOME, Duration.ofMinutes(1), PREDICT);
        String stamp = Files.readString(STAMP);
        Files.writeString(STAMP, "/some/other/java 11.0.1\n");
        Commands.Result run = Commands.run(HOME, Duration.ofMinutes(3), Map.of(), PREDICT);
        assertEquals(0, run.exit(), run.output());
        assertEquals(
                "kcscale: remaking the CLI's class-data archive (the build or the JVM changed)\n" + plain,
                run.output());
        assertEquals(stamp, Files.readString(STAMP));
    }
}
