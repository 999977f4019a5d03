package io.kcscale.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Prometheus against the local stack ({@code up --prometheus}): the compose stack's configuration
 * and rules from configs/prometheus/, laid out the way compose mounts them, with targets files that
 * name this stack's ports instead of the containers'. The same queries then work without Docker.
 */
final class LocalPrometheus {

    static final String NAME = "prometheus";
    private static final ObjectMapper JSON = new ObjectMapper();

    private LocalPrometheus() {}

    /** The {@code prometheus} program on the PATH (Debian: {@code apt-get install prometheus}). */
    static Optional<Path> binary() {
        String path = System.getenv("PATH");
        return path == null
                ? Optional.empty()
                : Stream.of(path.split(File.pathSeparator))
                        .map(dir -> Path.of(dir, NAME))
                        .filter(Files::isExecutable)
                        .findFirst();
    }

    /** Writes {@code <data>/prometheus/} and starts Prometheus on the stack's Prometheus URL. */
    static ChildJvm start(Path binary, InstallLayout layout, StackEndpoints endpoints, Path logFile) {
        Path dir = endpoints.dataDir().resolve(NAME);
        try {
            Path rules = Files.createDirectories(dir.resolve("rules"));
            Path targets = Files.createDirectories(dir.resolve("targets"));
            Files.copy(
                    layout.prometheusConfigs().resolve("prometheus.yml"),
                    dir.resolve("prometheus.yml"),
                    StandardCopyOption.REPLACE_EXISTING);
            try (Stream<Path> files = Files.list(layout.prometheusConfigs().resolve("rules"))) {
                for (Path rule : files.toList()) {
                    Files.copy(rule, rules.resolve(rule.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            writeTargets(targets.resolve("connect.json"), endpoints.metricsUrls());
            writeTargets(targets.resolve("scaler.json"), List.of(endpoints.scalerUrl()));
            // Elasticsearch 7 speaks no Prometheus; compose runs an exporter for it, the local stack none
            writeTargets(targets.resolve("elasticsearch.json"), List.of());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
        URI url = endpoints.prometheusUrl();
        return ChildJvm.startProcess(
                NAME,
                List.of(
                        binary.toString(),
                        "--config.file=" + dir.resolve("prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("tsdb"),
                        "--web.listen-address=" + url.getHost() + ":" + url.getPort()),
                logFile);
    }

    private static void writeTargets(Path file, List<URI> urls) throws IOException {
        List<String> hostPorts =
                urls.stream().map(u -> u.getHost() + ":" + u.getPort()).toList();
        JSON.writeValue(file.toFile(), hostPorts.isEmpty() ? List.of() : List.of(Map.of("targets", hostPorts)));
    }
}
