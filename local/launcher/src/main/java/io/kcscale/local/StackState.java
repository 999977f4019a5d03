package io.kcscale.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The record of a running stack in {@code <data>/stack.json}: which processes belong to it and where
 * it answers. {@code down} stops what it lists; {@code up} refuses to start a second stack over it.
 */
public final class StackState {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    private static final String FILE = "stack.json";

    private StackState() {}

    record Component(String name, long pid, String started, String log) {}

    record Saved(
            String kafkaBootstrap,
            List<String> connectUrls,
            String elasticsearchUrl,
            String scalerUrl,
            List<Component> components,
            List<String> metricsUrls,
            String prometheusUrl,
            String sinkElasticsearchUrl) {}

    /** Writes the record atomically, so a reader never sees half a file. */
    public static void write(Path dataDir, StackEndpoints endpoints, List<ChildJvm> children) {
        List<Component> components = new ArrayList<>();
        for (ChildJvm c : children) {
            components.add(new Component(
                    c.name(), c.pid(), c.startInstant().toString(), c.logFile().toString()));
        }
        Saved saved = new Saved(
                endpoints == null ? null : endpoints.kafkaBootstrap(),
                endpoints == null
                        ? List.of()
                        : endpoints.connectUrls().stream().map(URI::toString).toList(),
                endpoints == null ? null : endpoints.elasticsearchUrl().toString(),
                endpoints == null ? null : endpoints.scalerUrl().toString(),
                components,
                endpoints == null
                        ? List.of()
                        : endpoints.metricsUrls().stream().map(URI::toString).toList(),
                endpoints == null || endpoints.prometheusUrl() == null
                        ? null
                        : endpoints.prometheusUrl().toString(),
                endpoints == null ? null : endpoints.sinkElasticsearchUrl().toString());
        try {
            Files.createDirectories(dataDir);
            Path tmp = dataDir.resolve(FILE + ".tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), saved);
            Files.move(tmp, dataDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dataDir.resolve(FILE), e);
        }
    }

    /** The recorded components that still run (the same processes, not reused pids). */
    public static List<ChildJvm> runningComponents(Path dataDir) {
        Optional<Saved> saved = read(dataDir);
        List<ChildJvm> running = new ArrayList<>();
        saved.ifPresent(s -> s.components()
                .forEach(c -> ChildJvm.find(c.name(), c.pid(), Instant.parse(c.started()), Path.of(c.log()))
                        .ifPresent(running::add)));
        return running;
    }

    static Optional<StackEndpoints> endpoints(Path dataDir) {
        return read(dataDir)
                .filter(s -> s.kafkaBootstrap() != null)
                .map(s -> new StackEndpoints(
                        s.kafkaBootstrap(),
                        s.connectUrls().stream().map(URI::create).toList(),
                        URI.create(s.elasticsearchUrl()),
                        URI.create(s.scalerUrl()),
                        dataDir,
                        // absent in a record written before metrics existed
                        s.metricsUrls() == null
                                ? List.of()
                                : s.metricsUrls().stream().map(URI::create).toList(),
                        s.prometheusUrl() == null ? null : URI.create(s.prometheusUrl()),
                        // absent in a record written before the latency proxy existed
                        URI.create(
                                s.sinkElasticsearchUrl() == null ? s.elasticsearchUrl() : s.sinkElasticsearchUrl())));
    }

    public static void delete(Path dataDir) {
        try {
            Files.deleteIfExists(dataDir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dataDir.resolve(FILE), e);
        }
    }

    private static Optional<Saved> read(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), Saved.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (delete it if no stack runs)", e);
        }
    }
}
