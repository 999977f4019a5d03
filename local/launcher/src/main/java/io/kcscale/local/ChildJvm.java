package io.kcscale.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One component of the stack running as its own JVM, with its output in a log file. Children run
 * in their own session so a Ctrl-C at the terminal reaches only the launcher, which then stops them
 * in order (workers before the broker they commit to).
 */
public final class ChildJvm {

    private final String name;
    private final ProcessHandle process;
    private final Path logFile;

    ChildJvm(String name, ProcessHandle process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /** Starts {@code mainClass} on {@code classpath}; output goes to {@code logFile} (appended). */
    public static ChildJvm start(
            String name, String classpath, List<String> jvmOptions, String mainClass, List<String> args, Path logFile) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(args);
        return startProcess(name, command, logFile);
    }

    /** Starts any program as a component (Prometheus runs beside the JVMs), handled like a JVM child. */
    public static ChildJvm startProcess(String name, List<String> program, Path logFile) {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid");
        }
        command.addAll(program);
        try {
            Files.createDirectories(logFile.getParent());
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            return new ChildJvm(name, p.toHandle(), logFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** Finds a child recorded earlier, if that very process (same pid and start time) still runs. */
    public static Optional<ChildJvm> find(String name, long pid, Instant started, Path logFile) {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(h -> h.info().startInstant().map(s -> s.equals(started)).orElse(false))
                .map(h -> new ChildJvm(name, h, logFile));
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Instant startInstant() {
        return process.info().startInstant().orElse(Instant.EPOCH);
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The CPU time the process has used so far, where the system says (it does on Linux). */
    public Optional<Duration> cpuTime() {
        return process.info().totalCpuDuration();
    }

    /** Asks the JVM to shut down (SIGTERM, so its shutdown hooks run); kills it if it has not within {@code grace}. */
    public void stop(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception timedOut) {
            process.destroyForcibly();
            process.onExit().join();
        }
    }

    /** Kills the JVM at once (SIGKILL), as a crash would: for fault injection. */
    public void kill() {
        process.destroyForcibly();
        process.onExit().join();
    }

    /**
     * Freezes the process (SIGSTOP), as a long GC pause or a paused VM would: it keeps its sockets and resumes where
     * it stopped on {@link #resume}. For fault injection.
     */
    public void suspend() {
        signal("STOP");
    }

    /** Lets a {@link #suspend suspended} process run on (SIGCONT). */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + name, e);
        }
    }

    /** The last lines of this component's log, for a failure message. */
    public String logTail(int lines) {
        try {
            // logs may hold bytes that are not UTF-8; a tail must never fail for that
            List<String> all = Files.readAllLines(logFile, StandardCharsets.ISO_8859_1);
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log at " + logFile + ")";
        }
    }
}
