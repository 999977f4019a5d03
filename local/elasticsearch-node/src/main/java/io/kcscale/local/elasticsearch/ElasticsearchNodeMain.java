package io.kcscale.local.elasticsearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.node.InternalSettingsPreparer;
import org.elasticsearch.node.Node;
import org.elasticsearch.transport.Netty4Plugin;

/**
 * Runs one single-node Elasticsearch 7.17 cluster in this JVM until the process is told to stop.
 *
 * <p>Usage: {@code ElasticsearchNodeMain <home dir> <http port> <transport port>}. The CLI bootstrap
 * of a packaged Elasticsearch (bootstrap checks, security manager, jar-hell) is skipped by embedding.
 */
public final class ElasticsearchNodeMain {

    private ElasticsearchNodeMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: ElasticsearchNodeMain <home dir> <http port> <transport port>");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(home.resolve("data"));
        Files.createDirectories(home.resolve("logs"));
        Settings settings = Settings.builder()
                .put("path.home", home.toString())
                .put("path.data", home.resolve("data").toString())
                .put("path.logs", home.resolve("logs").toString())
                .put("cluster.name", "kcscale")
                .put("node.name", "kcscale-es-0")
                .put("network.host", "127.0.0.1")
                .put("http.port", args[1])
                .put("transport.port", args[2])
                .put("discovery.type", "single-node")
                // a nearly full disk (a CI machine) would otherwise turn indices read-only mid-test
                .put("cluster.routing.allocation.disk.threshold_enabled", false)
                .build();
        Environment environment = InternalSettingsPreparer.prepareEnvironment(
                settings, java.util.Map.of(), home.resolve("config"), () -> "kcscale-es-0");
        Node node = new Node(environment, List.of(Netty4Plugin.class), true) {};

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                node.close();
                            } catch (Exception e) {
                                e.printStackTrace();
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "elasticsearch-shutdown"));
        node.start();
        System.out.println("kcscale: elasticsearch node started on http://127.0.0.1:" + args[1]);
        stopped.await();
    }
}
