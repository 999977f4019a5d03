package io.kcscale.lab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Where one run's files go: {@code <results>/<timestamp>/}, a folder of its own per run. */
public final class RunDirectory {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;

    private RunDirectory(Path dir) {
        this.dir = dir;
    }

    /** A new folder under {@code results}, named by the local time (with a suffix if two runs start in one second). */
    public static RunDirectory create(Path results) {
        String stamp = LocalDateTime.now().format(STAMP);
        Path dir = results.resolve(stamp);
        for (int n = 2; Files.exists(dir); n++) {
            dir = results.resolve(stamp + "-" + n);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        return new RunDirectory(dir);
    }

    public Path path() {
        return dir;
    }

    public void write(String file, String content) {
        try {
            Files.writeString(dir.resolve(file), content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(file), e);
        }
    }

    public void writeJson(String file, Object value) {
        try {
            write(file, JSON.writeValueAsString(value) + "\n");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + file + " as JSON", e);
        }
    }
}
