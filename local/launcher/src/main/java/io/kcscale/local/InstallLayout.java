package io.kcscale.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Where the Maven build put what the launcher runs: classpaths, staged plugins, configs. */
public final class InstallLayout {

    private final Path home;

    /** The toolkit's folder, as the {@code kcscale} script names it ({@code -Dkcscale.home}); else the working directory. */
    public static Path toolkitHome() {
        return Path.of(System.getProperty("kcscale.home", ".")).toAbsolutePath().normalize();
    }

    public InstallLayout(Path home) {
        this.home = home.toAbsolutePath().normalize();
    }

    public Path home() {
        return home;
    }

    public Path configs() {
        return home.resolve("configs");
    }

    /** The broker and the Connect workers run on this classpath. */
    public String kafkaClasspath() {
        return read(home.resolve("local/kafka-runtime/target/runtime.classpath"));
    }

    public String elasticsearchClasspath() {
        Path target = home.resolve("local/elasticsearch-node/target");
        return jarIn(target, "kcscale-elasticsearch-node-")
                + java.io.File.pathSeparator
                + read(target.resolve("runtime.classpath"));
    }

    /** The scaler service runs on this classpath. */
    public String scalerClasspath() {
        Path target = home.resolve("scaler/service/target");
        return jarIn(target, "kcscale-scaler-service-")
                + java.io.File.pathSeparator
                + read(target.resolve("runtime.classpath"));
    }

    /** The Connect {@code plugin.path}: one folder per plugin family, each holding plugin directories. */
    public List<Path> pluginPath() {
        return List.of(
                home.resolve("connectors/datagen/target/plugin"),
                home.resolve("connectors/camel-elasticsearch-sink/target/plugin"));
    }

    /** The JMX exporter agent, staged by the kafka-runtime build for {@code up --metrics} and the compose connect image. */
    public Path jmxExporterAgent() {
        return home.resolve("local/kafka-runtime/target/jmx-exporter/jmx_prometheus_javaagent.jar");
    }

    /** The agent's rules for a Connect worker, the same file the compose stack uses. */
    public Path jmxExporterConfig() {
        return configs().resolve("jmx-exporter/connect-worker.yml");
    }

    /** Prometheus' configuration and rules, the same the compose stack uses. */
    public Path prometheusConfigs() {
        return configs().resolve("prometheus");
    }

    /** Fails with what to run when the build has not produced everything yet. */
    public void requireBuilt() {
        List<String> missing = new ArrayList<>();
        for (Path p : List.of(
                home.resolve("local/kafka-runtime/target/runtime.classpath"),
                home.resolve("local/elasticsearch-node/target/runtime.classpath"),
                home.resolve("scaler/service/target/runtime.classpath"),
                configs())) {
            if (!Files.exists(p)) {
                missing.add(home.relativize(p).toString());
            }
        }
        for (Path p : pluginPath()) {
            if (!Files.isDirectory(p)) {
                missing.add(home.relativize(p).toString());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the build is incomplete (missing " + String.join(", ", missing)
                    + "): run `./kcscale build` (or `mvn -DskipTests package`) in " + home);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": run `./kcscale build` first", e);
        }
    }

    /** The newest such jar: a version change leaves the earlier version's jar in target/ until {@code mvn clean}. */
    private static String jarIn(Path dir, String prefix) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                            && f.toString().endsWith(".jar"))
                    .max(Comparator.comparing(f -> f.toFile().lastModified()))
                    .map(Path::toString)
                    .orElseThrow(() -> new IllegalStateException(
                            "no " + prefix + "*.jar in " + dir + ": run `./kcscale build` first"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir + ": run `./kcscale build` first", e);
        }
    }
}
