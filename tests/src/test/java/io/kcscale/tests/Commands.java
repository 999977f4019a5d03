package io.kcscale.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the command-line tools the tests check the repository with (promtool, docker-compose, npm, sh). */
final class Commands {

    record Result(int exit, String output) {
    }

    private Commands() {
    }

    /** Runs {@code command} in {@code dir} with extra environment, stdout and stderr together; fails past {@code timeout}. */
    static Result run(Path dir, Duration timeout, Map<String, String> env, List<String> command) {
        try {
            Path out = Files.createTempFile("kcscale-command", ".out");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                        .redirectErrorStream(true).redirectOutput(out.toFile());
                builder.environment().putAll(env);
                Process p = builder.start();
                if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    fail(String.join(" ", command) + " did not finish within " + timeout + ":\n" + Files.readString(out));
                }
                return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command.get(0) + " (./kcscale test installs it: see tests/prerequisites.sh)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Runs {@code command} and asserts it exits 0; returns its output. */
    static String runOk(Path dir, Duration timeout, List<String> command) {
        Result r = run(dir, timeout, Map.of(), command);
        assertTrue(r.exit() == 0, String.join(" ", command) + " exited " + r.exit() + ":\n" + r.output());
        return r.output();
    }
}
