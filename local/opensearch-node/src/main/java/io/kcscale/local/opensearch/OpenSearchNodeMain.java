package io.kcscale.local.opensearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.io.IOUtils;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.transport.Netty4Plugin;

/**
 * Runs one single-node OpenSearch 2.x cluster in this JVM until the process is told to stop: the server
 * with its Netty HTTP transport and nothing else, so no security plugin answers (plain HTTP, no users).
 *
 * <p>Usage: {@code OpenSearchNodeMain <home dir> <http port> <transport port>}. Embedding skips what the
 * packaged node's bootstrap does first (bootstrap checks, security manager, jar-hell).
 */
public final class OpenSearchNodeMain {

    private static final String NODE_NAME = "kcscale-opensearch-0";

    private OpenSearchNodeMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: OpenSearchNodeMain <home dir> <http port> <transport port>");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Settings settings = Settings.builder()
                .loadFromMap(Map.of(
                        "path.home",
                        home.toString(),
                        "path.data",
                        Files.createDirectories(home.resolve("data")).toString(),
                        "path.logs",
                        Files.createDirectories(home.resolve("logs")).toString(),
                        "cluster.name",
                        "kcscale",
                        "node.name",
                        NODE_NAME,
                        "network.host",
                        "127.0.0.1",
                        "http.port",
                        args[1],
                        "transport.port",
                        args[2],
                        "discovery.type",
                        "single-node",
                        // a nearly full disk (a CI machine) would otherwise turn indices read-only mid-test
                        "cluster.routing.allocation.disk.threshold_enabled",
                        "false"))
                .build();
        Environment environment = InternalSettingsPreparer.prepareEnvironment(
                settings, Map.of(), home.resolve("config"), () -> NODE_NAME);
        // the constructor that takes classpath plugins is protected: a subclass reaches it
        Node node = new Node(environment, List.of(Netty4Plugin.class), true) {};

        // ChildJvm.stop's SIGTERM runs this hook; the JVM exits once it has closed the node
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> IOUtils.closeWhileHandlingException(node), "opensearch-shutdown"));
        node.start();
        System.out.println("kcscale: opensearch node started on http://127.0.0.1:" + args[1]);
        // the node's threads are daemons: this one keeps the JVM up until it is told to stop
        new CountDownLatch(1).await();
    }
}
