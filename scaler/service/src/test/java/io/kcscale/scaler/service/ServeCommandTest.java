package io.kcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.cli.CliRun;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

class ServeCommandTest {

    private static final long TIMEOUT_SECONDS = 30;

    @Test
    void servesUntilSigtermThenStopsCleanly() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process serve = new ProcessBuilder(
                        java.toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        ServeCommand.class.getName(),
                        "serve",
                        "--port",
                        "0")
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8))) {
            String banner = readLine(out);
            Matcher url = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+) ")
                    .matcher(banner);
            assertTrue(url.find(), banner);
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url.group(1) + "/openapi.json"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());

            serve.toHandle().destroy(); // SIGTERM; Process.destroy() would also close the stream we still read
            assertTrue(serve.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "still running after SIGTERM");
            assertEquals("kcscale API stopped", readLine(out));
            assertEquals(143, serve.exitValue(), "the exit status of a JVM ended by SIGTERM");
        } finally {
            serve.destroyForcibly();
        }
    }

    @Test
    void aTakenPortIsOneLineAndExitCodeOne() throws IOException {
        try (ApiServer taken = ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            String port = String.valueOf(taken.address().getPort());
            CliRun run = CliRun.of(ServeCommand.newCommandLine(), "serve", "--port", port);
            assertEquals(1, run.exitCode());
            assertTrue(
                    run.err().matches("kcscale serve: cannot listen on 127\\.0\\.0\\.1:" + port + ": .+\\n"),
                    run.err());
        }
    }

    @Test
    void aBadPortIsAUsageError() {
        for (String port : new String[] {"70000", "-1", "80.5", "http"}) {
            CliRun run = CliRun.of(ServeCommand.newCommandLine(), "serve", "--port", port);
            assertEquals(2, run.exitCode(), port);
            assertTrue(run.err().startsWith("kcscale serve: --port must be "), run.err());
        }
    }

    @Test
    void aBindBeyondLoopbackWithoutATokenRefusesToStart() {
        CliRun run = CliRun.of(ServeCommand.newCommandLine(), "serve", "--bind", "0.0.0.0", "--port", "0");
        assertEquals(2, run.exitCode());
        assertEquals(
                "kcscale serve: --bind 0.0.0.0 lets other machines call the scaler: give it a token with --token-file FILE"
                        + " or KCSCALE_TOKEN (callers send Authorization: Bearer <token>)\n",
                run.err());
    }

    @Test
    void anUnreadableTokenFileOrABadAllowanceIsAUsageError(@TempDir Path dir) {
        CliRun missing = CliRun.of(
                ServeCommand.newCommandLine(),
                "serve",
                "--bind",
                "0.0.0.0",
                "--port",
                "0",
                "--token-file",
                dir.resolve("none").toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("kcscale serve: cannot read token.file "), missing.err());
        CliRun origin =
                CliRun.of(ServeCommand.newCommandLine(), "serve", "--port", "0", "--allowed-origin", "ops.example.com");
        assertEquals(2, origin.exitCode());
        assertTrue(origin.err().startsWith("kcscale serve: --allowed-origin must be an origin"), origin.err());
    }

    @Test
    void flagsWinOverTheEnvironmentWhichWinsOverTheSettingsFile(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(
                dir.resolve("scaler.properties"),
                "token=from-file\nconnect.password=from-file\n"
                        + "elasticsearch.password.file=/file/es\nallowed.hosts=scaler\n");
        Map<String, String> environment = Map.of(
                "KCSCALE_TOKEN",
                "from-env",
                "KCSCALE_CONNECT_PASSWORD",
                "from-env",
                "KCSCALE_ELASTICSEARCH_PASSWORD",
                "from-env");
        Map<String, String> plain = values(environment, "--config", config.toString());
        assertEquals("from-env", plain.get("token"));
        assertEquals("from-env", plain.get("connect.password"));
        assertEquals("from-env", plain.get("elasticsearch.password"));
        assertFalse(
                plain.containsKey("elasticsearch.password.file"), "the environment replaces the file's secret file");
        Map<String, String> flagged = values(
                environment,
                "--config",
                config.toString(),
                "--token-file",
                "/flag/token",
                "--connect-password",
                "from-flag",
                "--allowed-host",
                "a",
                "--allowed-host",
                "b:9",
                "--allowed-origin",
                "https://x");
        assertEquals("/flag/token", flagged.get("token.file"));
        assertFalse(flagged.containsKey("token"), "--token-file replaces the token from the environment");
        assertEquals("from-flag", flagged.get("connect.password"));
        assertEquals("a,b:9", flagged.get("allowed.hosts"));
        assertEquals("https://x", flagged.get("allowed.origins"));
    }

    @Test
    void anIndexPerConnectorComesFromTheFileOrTheFlagAndABadOneIsAUsageError(@TempDir Path dir) throws IOException {
        Path config =
                Files.writeString(dir.resolve("scaler.properties"), "index.file-sink=from-file\nindex.other=kept\n");
        Map<String, String> values = values(Map.of(), "--config", config.toString(), "--index", "file-sink=from-flag");
        assertEquals("from-flag", values.get("index.file-sink"));
        assertEquals("kept", values.get("index.other"));
        CliRun bad = CliRun.of(
                ServeCommand.newCommandLine(),
                "serve",
                "--port",
                "0",
                "--connect-url",
                "http://127.0.0.1:1",
                "--kafka-bootstrap-servers",
                "127.0.0.1:1",
                "--elasticsearch-url",
                "http://127.0.0.1:1",
                "--index",
                "file-sink=Mirror");
        assertEquals(2, bad.exitCode());
        assertTrue(
                bad.err().startsWith("kcscale serve: --index file-sink=Mirror: the index name has upper-case letters"),
                bad.err());
    }

    @Test
    void anEarlierSpellingIsReadWithOneLineNamingTheNewOne(@TempDir Path dir) {
        Map<String, String> values = values(
                Map.of("KCSCALE_TRUSTSTORE_PASSWORD", "old-env", "KCSCALE_TOKEN", "t"),
                "--bootstrap-servers",
                "h:1",
                "--truststore",
                "/ca.p12",
                "--kubeconfig",
                "/kube",
                "--max-tasks",
                "7");
        assertEquals(
                Map.of(
                        "kafka.bootstrap.servers",
                        "h:1",
                        "tls.truststore",
                        "/ca.p12",
                        "kubernetes.kubeconfig",
                        "/kube",
                        "task.cap",
                        "7",
                        "tls.truststore.password",
                        "old-env",
                        "token",
                        "t"),
                values);
        assertEquals(
                "new-env",
                values(Map.of("KCSCALE_TRUSTSTORE_PASSWORD", "old-env", "KCSCALE_TLS_TRUSTSTORE_PASSWORD", "new-env"))
                        .get("tls.truststore.password"),
                "the new name wins");

        CliRun run = CliRun.of(
                ServeCommand.newCommandLine(),
                "serve",
                "--port",
                "0",
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--truststore-password-file",
                dir.resolve("none").toString());
        assertEquals(2, run.exitCode());
        assertTrue(
                run.err()
                        .startsWith("kcscale serve: --bootstrap-servers is deprecated: use --kafka-bootstrap-servers\n"
                                + "kcscale serve: --truststore-password-file is deprecated: use --tls-truststore-password-file\n"
                                + "kcscale serve: cannot read tls.truststore.password.file "),
                run.err());
        assertEquals(3, run.err().lines().count(), run.err());
        assertFalse(
                CliRun.of(ServeCommand.newCommandLine(), "serve", "--help")
                        .out()
                        .contains("--bootstrap-servers"),
                "the help shows only the new spellings");
    }

    @Test
    void aBadValueIsOneLineNamingTheSettingAndItsFlag() {
        CliRun run = CliRun.of(
                ServeCommand.newCommandLine(),
                "serve",
                "--port",
                "0",
                "--connect-url",
                "http://127.0.0.1:1",
                "--kafka-bootstrap-servers",
                "127.0.0.1:1",
                "--elasticsearch-url",
                "http://127.0.0.1:1",
                "--task-cap",
                "many");
        assertEquals(2, run.exitCode());
        assertEquals("kcscale serve: task.cap (--task-cap) must be a positive number, got many\n", run.err());
        CliRun family = CliRun.of(ServeCommand.newCommandLine(), "serve", "--kafka-property", "no-equals-sign");
        assertEquals(2, family.exitCode());
        assertTrue(
                family.err().startsWith("--kafka-property takes PROPERTY=VALUE, got no-equals-sign\n"), family.err());
    }

    @Test
    void aLaterFlagReplacesAnEarlierOne() {
        assertEquals(
                "b:2",
                values(Map.of(), "--kafka-bootstrap-servers", "a:1", "--bootstrap-servers", "b:2")
                        .get("kafka.bootstrap.servers"));
    }

    private static Map<String, String> values(Map<String, String> environment, String... args) {
        CommandSpec spec = ServeCommand.newSpec();
        new CommandLine(spec).parseArgs(args);
        return ((ServeCommand) spec.userObject()).values(environment);
    }

    private static String readLine(BufferedReader out) throws InterruptedException, ExecutionException {
        try {
            return CompletableFuture.supplyAsync(() -> {
                        try {
                            return out.readLine();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no line from kcscale serve within " + TIMEOUT_SECONDS + " s", e);
        }
    }
}
