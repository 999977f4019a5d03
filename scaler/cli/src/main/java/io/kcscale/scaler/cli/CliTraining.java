package io.kcscale.scaler.cli;

import com.sun.net.httpserver.HttpServer;
import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The training run of the CLI's class-data-sharing archive, and the stand-in scaler the start-up
 * benchmark times the live verbs against.
 * <p>
 * {@code ./kcscale build} runs this class with {@code -XX:ArchiveClassesAtExit}: it runs the quick verbs
 * ({@code predict ...}, and {@code status}, {@code check}, {@code scale --dry-run}, {@code decisions}
 * against a stand-in of the scaler's API on a loopback port), printing nothing, so the archive holds the
 * classes they load and a later CLI call maps them instead of loading them from the jars.
 * <p>
 * With {@code --stand-in PORT} it only serves the stand-in's canned answers on that loopback port until
 * killed: {@code tests/bench-cli-start.sh} times {@code status}, {@code check} and {@code scale --dry-run}
 * against it, so the verbs parse and print a full answer, as against a scaler observing a pipeline.
 */
public final class CliTraining {

    private CliTraining() {}

    public static void main(String[] args) {
        if (args.length == 2 && "--stand-in".equals(args[0])) {
            HttpServer server = standIn(Integer.parseInt(args[1]));
            System.out.println(
                    "stand-in scaler on http://127.0.0.1:" + server.getAddress().getPort());
            return; // the server's thread keeps the JVM running
        }
        HttpServer server = standIn(0);
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            List<List<String>> runs = List.of(
                    List.of("predict", "tasks", "--target-rate", "1000", "--per-task-rate", "300"),
                    List.of(
                            "predict",
                            "tasks",
                            "--target-rate",
                            "1000",
                            "--per-task-rate",
                            "300",
                            "--arrivals",
                            "poisson",
                            "--json"),
                    List.of("predict", "tasks", "--target-rate", "x"),
                    List.of("predict", "kafka", "--help"),
                    List.of("predict", "shards", "--help"),
                    List.of("predict", "lag-threshold", "--help"),
                    List.of("status", "stocks-es-sink", "--scaler-url", url),
                    List.of("status", "stocks-es-sink", "--scaler-url", url, "--json"),
                    List.of("check", "stocks-es-sink", "--scaler-url", url),
                    List.of("scale", "stocks-es-sink", "--tasks", "3", "--dry-run", "--scaler-url", url),
                    List.of("decisions", "stocks-es-sink", "--scaler-url", url),
                    List.of("status", "stocks-es-sink", "--scaler-url", "http://127.0.0.1:1"),
                    List.of("status"),
                    List.of("--help"));
            for (List<String> run : runs) {
                String[] argv = run.toArray(String[]::new);
                KcscaleCommand.newCommandLineFor(argv)
                        .setOut(nowhere())
                        .setErr(nowhere())
                        .execute(argv);
            }
        } finally {
            server.stop(0);
        }
    }

    private static PrintWriter nowhere() {
        return new PrintWriter(Writer.nullWriter());
    }

    /** Answers every request on a loopback port with a canned answer of the scaler's API (port 0: any free port). */
    static HttpServer standIn(int port) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            Object body = path.endsWith("/checks")
                    ? CHECKS
                    : path.endsWith("/scale") ? SCALE : path.endsWith("/autoscale") ? DECISIONS : STATUS;
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return server;
    }

    private static final Map<String, Object> STATUS = Map.ofEntries(
            Map.entry("name", "stocks-es-sink"),
            Map.entry("topics", List.of("stocks")),
            Map.entry("tasksMax", 2),
            Map.entry("partitions", 20),
            Map.entry("stable", false),
            Map.entry("windowSeconds", 30),
            Map.entry("rates", Map.of("appendPerSecond", 300.2, "sinkPerSecond", 299.8, "indexPerSecond", 300.1)),
            Map.entry("lag", Map.of("total", 42)),
            Map.entry("latencySeconds", 0.14),
            Map.entry("elasticsearch", Map.of("index", "stocks", "primaryShards", 1, "replicas", 0, "dataNodes", 1)),
            Map.entry(
                    "tasks",
                    List.of(
                            Map.of(
                                    "id",
                                    0,
                                    "state",
                                    "RUNNING",
                                    "workerId",
                                    "127.0.0.1:8083",
                                    "recordsPerSecond",
                                    150.1,
                                    "partitions",
                                    List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)),
                            Map.of(
                                    "id",
                                    1,
                                    "state",
                                    "RUNNING",
                                    "workerId",
                                    "127.0.0.1:8083",
                                    "recordsPerSecond",
                                    149.7,
                                    "partitions",
                                    List.of(10, 11, 12, 13, 14, 15, 16, 17, 18, 19)))),
            Map.entry("reasons", List.of("the window is not full yet (12 of 30 s)")));

    private static final Map<String, Object> CHECKS = Map.of(
            "connector",
            "stocks-es-sink",
            "severity",
            "warning",
            "tasks",
            2,
            "findings",
            List.of(
                    Map.of(
                            "id",
                            "key-cardinality",
                            "severity",
                            "ok",
                            "title",
                            "enough distinct keys",
                            "evidence",
                            Map.of("distinctKeys", 9921, "partitions", 20)),
                    Map.of(
                            "id",
                            "partition-skew",
                            "severity",
                            "warning",
                            "title",
                            "two partitions take most records",
                            "evidence",
                            Map.of("hottestShare", 0.61, "partitions", 20),
                            "advice",
                            "choose a key with more distinct values\nor let records be spread at random")));

    private static final Map<String, Object> SCALE = Map.of(
            "connector",
            "stocks-es-sink",
            "dryRun",
            true,
            "plan",
            "set tasks.max 2 -> 3",
            "before",
            2,
            "after",
            3,
            "warnings",
            List.of("partition-skew: two partitions take most records"));

    private static final Map<String, Object> DECISIONS =
            Map.of("decisions", List.of(), "evaluationIntervalMillis", 10000);
}
