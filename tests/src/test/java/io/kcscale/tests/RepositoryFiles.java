package io.kcscale.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** The repository the tests run in, and its YAML and JSON files read as trees. */
final class RepositoryFiles {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private RepositoryFiles() {
    }

    static Path home() {
        return Path.of(System.getProperty("kcscale.home", "..")).toAbsolutePath().normalize();
    }

    static JsonNode yaml(Path file) {
        return read(YAML, file);
    }

    static JsonNode json(Path file) {
        return read(JSON, file);
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }

    private static JsonNode read(ObjectMapper mapper, Path file) {
        try {
            return mapper.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
