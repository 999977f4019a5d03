package io.kcscale.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.kcscale.local.ChildJvm;
import io.kcscale.scaler.poll.Poll;

/**
 * A single-node Elasticsearch 8 or 9 or OpenSearch 2 cluster as a child JVM on free ports: the classpath of
 * {@code local/elasticsearch8-node}, {@code local/elasticsearch9-node} or {@code local/opensearch-node}. The
 * Elasticsearch nodes are started by the latter's {@code PluginsLoaderNodeMain} with their staged transport
 * module, OpenSearch by its own module's {@code OpenSearchNodeMain}. 9.x needs a JDK 21 or newer:
 * {@code KCSCALE_JDK21_HOME}, else the newest such JDK under {@code /usr/lib/jvm}; the others run on the
 * tests' own JDK.
 */
final class ElasticsearchChildNode implements AutoCloseable {

    private static final int NEEDED_JAVA = 21;

    /** The class that runs a node, the module whose jar holds it, and the product it runs (names the process and log). */
    record Main(String module, String className, String product) {
        /** Takes the version's staged transport module directory as its last argument. */
        static final Main PLUGINS_LOADER = new Main("local/elasticsearch9-node", "io.kcscale.local.elasticsearch9.PluginsLoaderNodeMain",
                "elasticsearch");
        static final Main OPENSEARCH = new Main("local/opensearch-node", "io.kcscale.local.opensearch.OpenSearchNodeMain", "opensearch");
    }

    /** A version of the matrix: the module that stages its classpath, the class that runs it, and the Java it needs. */
    enum Version {
        V8("local/elasticsearch8-node", Main.PLUGINS_LOADER, 17),
        V9("local/elasticsearch9-node", Main.PLUGINS_LOADER, NEEDED_JAVA),
        OPENSEARCH2("local/opensearch-node", Main.OPENSEARCH, 17);

        final String module;
        final Main main;
        final int java;

        Version(String module, Main main, int java) {
            this.module = module;
            this.main = main;
            this.java = java;
        }
    }

    private final ChildJvm process;
    private final URI url;

    private ElasticsearchChildNode(ChildJvm process, URI url) {
        this.process = process;
        this.url = url;
    }

    static ElasticsearchChildNode start(Version version, Path home, Path dataDir) throws IOException {
        Path mainTarget = home.resolve(version.main.module() + "/target");
        Path target = home.resolve(version.module + "/target");
        String jarPrefix = "kcscale-" + Path.of(version.main.module()).getFileName() + "-";
        String classpath;
        try (Stream<Path> files = Files.list(mainTarget)) {
            Path jar = files.filter(f -> f.getFileName().toString().startsWith(jarPrefix)
                    && f.toString().endsWith(".jar")).findFirst().orElseThrow(() -> new IllegalStateException(
                    "no " + jarPrefix + "*.jar in " + mainTarget + ": run `./kcscale build`"));
            classpath = jar + java.io.File.pathSeparator + Files.readString(target.resolve("runtime.classpath")).trim();
        }
        int http = freePort();
        int transport = freePort();
        Path java = version.java > Runtime.version().feature() ? newerJava() : Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xms256m", "-Xmx512m", "-XX:+ExitOnOutOfMemoryError",
                "-cp", classpath, version.main.className(), dataDir.toString(), String.valueOf(http), String.valueOf(transport)));
        if (version.main.equals(Main.PLUGINS_LOADER)) {
            command.add(target.resolve("modules").toString());
        }
        ChildJvm process = ChildJvm.startProcess(version.main.product() + "-" + version, command,
                dataDir.resolve(version.main.product() + ".log"));
        ElasticsearchChildNode node = new ElasticsearchChildNode(process, URI.create("http://127.0.0.1:" + http));
        try {
            node.awaitHealth();
        } catch (RuntimeException e) {
            node.close();
            throw new IllegalStateException(e.getMessage() + "; its log ends:\n" + process.logTail(30), e);
        }
        return node;
    }

    URI url() {
        return url;
    }

    private void awaitHealth() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Poll.until("the node at " + url + " to answer", Duration.ofSeconds(120), Duration.ofMillis(500), () -> {
            if (!process.isAlive()) {
                throw new Poll.Abort("the node exited");
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url.resolve("/_cluster/health"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Poll.Abort("interrupted");
            }
        });
    }

    /** The JDK that runs a 9.x node: Elasticsearch 9 is Java 21 bytecode. */
    private static Path newerJava() throws IOException {
        String configured = System.getenv("KCSCALE_JDK21_HOME");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured, "bin", "java");
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> homes = Files.list(jvms)) {
                Optional<Path> newest = homes.filter(h -> majorVersion(h) >= NEEDED_JAVA && Files.isExecutable(h.resolve("bin/java")))
                        .max(Comparator.comparingInt(ElasticsearchChildNode::majorVersion));
                if (newest.isPresent()) {
                    return newest.get().resolve("bin/java");
                }
            }
        }
        throw new IllegalStateException("Elasticsearch 9 needs JDK " + NEEDED_JAVA + " or newer and none is under /usr/lib/jvm:"
                + " install one (e.g. Temurin) or set KCSCALE_JDK21_HOME");
    }

    /** A JDK's major version from its {@code release} file ({@code JAVA_VERSION="25.0.1"}); 0 when unreadable. */
    private static int majorVersion(Path jdkHome) {
        try (Stream<String> lines = Files.lines(jdkHome.resolve("release"))) {
            return lines.filter(l -> l.startsWith("JAVA_VERSION=")).findFirst()
                    .map(l -> Integer.parseInt(l.replaceAll("JAVA_VERSION=\"(\\d+).*", "$1"))).orElse(0);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.stop(Duration.ofSeconds(20));
    }
}
