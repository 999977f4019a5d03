package io.kcscale.tests.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.ChildJvm;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.FreePort;
import io.kcscale.tests.fixtures.OwnStack;
import io.kcscale.tests.fixtures.ScalerHttp;
import io.kcscale.tests.fixtures.SecureStack;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scaler against a secured pipeline it did not start, configured as a user would: {@code serve
 * --config FILE} with every secret in a file. Kafka over SASL_SSL (SCRAM-SHA-512) with ACLs, Connect's
 * REST API over HTTPS with basic auth, Elasticsearch behind nginx (TLS, an API key). Then what a user
 * gets wrong: a wrong password, an untrusted certificate, a missing ACL, each one line that names the
 * system and what to change, and no secret in any output.
 */
@Order(23)
@ExtendWith(OwnStack.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredPipelineTest {

    private static final String CONNECTOR = "/api/v1/connectors/" + StackOptions.SINK_CONNECTOR;
    private static final Path HOME =
            Path.of(System.getProperty("kcscale.home", "..")).toAbsolutePath().normalize();
    // wiped by each start: the scalers' settings, secrets, state and logs go beside the stack's
    private static final Path DATA = HOME.resolve("tests/target/e2e-secure");

    private static SecureStack stack;
    private static final List<ChildJvm> scalers = new ArrayList<>();

    @BeforeAll
    static void startStack() {
        stack = SecureStack.start(HOME, DATA, 4, 200, 1_000_000, m -> System.out.println("[secure] " + m));
        stack.writeScalerSecrets(DATA.resolve("scaler-secrets"));
    }

    @AfterAll
    static void stopStack() {
        scalers.forEach(s -> s.stop(Duration.ofSeconds(10)));
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void observesChecksScalesAndAutoscalesTheSecuredPipeline() throws Exception {
        Scaler scaler = scaler("good", Map.of());
        JsonNode status = Poll.until(
                "the scaler to observe the secured pipeline", Duration.ofSeconds(90), Duration.ofSeconds(1), () -> {
                    ScalerHttp.Answer a = scaler.http.get(CONNECTOR);
                    JsonNode rates = a.body() == null ? null : a.body().path("rates");
                    if (a.status() != 200
                            || a.body().path("degraded").asBoolean(true)
                            || a.body().path("lag").path("total").isMissingNode()
                            || rates.path("indexPerSecond").isNull()) {
                        throw new IllegalStateException("status " + a.status()
                                + (a.body() == null
                                        ? ""
                                        : ", degraded " + a.body().path("degraded") + ", unreachable "
                                                + a.body().path("unreachable") + ", rates " + rates));
                    }
                    return Optional.of(a.body());
                });
        assertEquals(0, status.path("unreachable").size(), status.toString());
        assertEquals("RUNNING", status.path("tasks").path(0).path("state").asText(), status.toString());

        // the key sample reads the topic over SASL_SSL, with the scaler's Read ACL
        ScalerHttp.Answer checks = scaler.http.get(CONNECTOR + "/checks?sampleRecords=200&sampleSeconds=10");
        assertEquals(200, checks.status(), checks.raw());
        JsonNode key = finding(checks.body(), "key-cardinality");
        assertFalse(key.path("title").asText().contains("unknown"), key.toString());
        assertTrue(key.path("evidence").path("sampledRecords").asInt() > 0, key.toString());

        ScalerHttp.Answer scale = scaler.http.post(CONNECTOR + "/scale", "{\"tasks\":2}");
        assertEquals(200, scale.status(), scale.raw());
        assertEquals(2, scale.body().path("tasksRunning").asInt(), scale.raw());

        // the autoscaler acts through the same secured clients
        String autoscale = CONNECTOR + "/autoscale";
        assertEquals(
                200,
                scaler.http
                        .put(autoscale, "{\"minTasks\":3,\"maxTasks\":3,\"targetLag\":1000000}")
                        .status());
        JsonNode applied = Poll.until(
                "the autoscaler to apply its decision", Duration.ofSeconds(90), Duration.ofSeconds(1), () -> {
                    JsonNode state = scaler.http.get(autoscale).body();
                    for (JsonNode r : state.path("decisions")) {
                        if (r.path("outcome").asText().startsWith("applied")) {
                            return Optional.of(r);
                        }
                    }
                    throw new IllegalStateException("decisions " + state.path("decisions"));
                });
        assertTrue(applied.path("outcome").asText().startsWith("applied: 3 tasks RUNNING"), applied.toString());
        assertEquals(200, scaler.http.delete(autoscale).status());
        scaler.process.stop(Duration.ofSeconds(10));
        assertNoSecret(scaler);
    }

    /** What a scaler Kafka refuses cannot do: keep its autoscale policies, in the state topic. */
    private static final String AUTOSCALING_OFF =
            "autoscaling is off until the scaler reads its policies from Kafka's topic"
                    + " kcscale-default-state, which it tries again in the background";

    @Test
    @Order(2)
    void wrongPasswordsAndUntrustedCertificatesAreOneLineEachAtStart() throws Exception {
        Path wrong = DATA.resolve("secrets-wrong");
        Files.createDirectories(wrong);
        Files.writeString(wrong.resolve("password"), "not-the-password");
        Files.writeString(wrong.resolve("kafka.properties"), "password=not-the-password\n");

        // Connect and Elasticsearch with wrong secrets, Kafka without the truststore that holds its CA
        Scaler first = scaler(
                "wrong-secrets",
                Map.of(
                        "connect.password.file",
                        wrong.resolve("password").toString(),
                        "elasticsearch.api.key.file",
                        wrong.resolve("password").toString(),
                        "kafka.ssl.truststore.location",
                        "",
                        "kafka.ssl.truststore.type",
                        "",
                        "kafka.ssl.truststore.password",
                        ""));
        assertStartLines(
                first,
                "Kafka Connect at " + stack.connectUrl()
                        + " refused the scaler's credentials (HTTP 401): check connect.username and connect.password",
                "Elasticsearch at " + stack.elasticsearchUrl()
                        + " refused the scaler's credentials (HTTP 401): check elasticsearch.api.key,"
                        + " or elasticsearch.username and elasticsearch.password",
                "Kafka presented a certificate the scaler does not trust: set kafka.ssl.truststore.location to a truststore holding the CA"
                        + " that signed it (and kafka.ssl.truststore.password, kafka.ssl.truststore.type)",
                AUTOSCALING_OFF);

        // Connect and Elasticsearch without the truststore, Kafka with a wrong password
        Scaler second = scaler(
                "untrusted",
                Map.of(
                        "tls.truststore",
                        "",
                        "tls.truststore.password.file",
                        "",
                        "kafka.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                                + SecureStack.SCALER_USER + "\" password=\"${file:" + wrong.resolve("kafka.properties")
                                + ":password}\";"));
        assertStartLines(
                second,
                "Kafka Connect at " + stack.connectUrl()
                        + " presented a certificate the scaler does not trust: set tls.truststore"
                        + " to a truststore holding the CA that signed it (and tls.truststore.password)",
                "Elasticsearch at " + stack.elasticsearchUrl()
                        + " presented a certificate the scaler does not trust: set tls.truststore"
                        + " to a truststore holding the CA that signed it (and tls.truststore.password)",
                "Kafka refused the scaler's SASL login (wrong user name, password or mechanism): check kafka.sasl.jaas.config"
                        + " and kafka.sasl.mechanism",
                AUTOSCALING_OFF);
        for (Scaler s : List.of(first, second)) {
            s.process.stop(Duration.ofSeconds(10));
            assertNoSecret(s);
        }
    }

    @Test
    @Order(3)
    void aMissingAclARevokedKeyAndARotatedPasswordShowWhileRunning() throws Exception {
        Scaler scaler = scaler("running", Map.of());
        awaitUnreachable(scaler, List.of());

        AclBinding groupAcl = SecureStack.scalerAcls().stream()
                .filter(a -> a.pattern().resourceType() == ResourceType.GROUP)
                .findFirst()
                .orElseThrow();
        try (KafkaReadingsClient admin = stack.adminAsBroker()) {
            admin.admin().deleteAcls(List.of(groupAcl.toFilter())).all().get();
            awaitUnreachable(
                    scaler,
                    List.of("Kafka denied the scaler access to consumer group connect-" + StackOptions.SINK_CONNECTOR
                            + ": grant its principal the ACL Describe on the group"));
            admin.admin().createAcls(List.of(groupAcl)).all().get();
        }
        awaitUnreachable(scaler, List.of());

        stack.acceptApiKey(false);
        awaitUnreachable(
                scaler,
                List.of("Elasticsearch at " + stack.elasticsearchUrl() + " refused the scaler's credentials (HTTP 401):"
                        + " check elasticsearch.api.key, or elasticsearch.username and elasticsearch.password"));
        stack.acceptApiKey(true);
        awaitUnreachable(scaler, List.of());

        // the broker makes every client log in again within 10 s (connections.max.reauth.ms)
        stack.setScalerKafkaPassword("rotated-" + System.nanoTime());
        awaitUnreachable(
                scaler,
                List.of("Kafka refused the scaler's SASL login (wrong user name, password or mechanism):"
                        + " check kafka.sasl.jaas.config and kafka.sasl.mechanism"));
        stack.setScalerKafkaPassword(null);
        awaitUnreachable(scaler, List.of());
        scaler.process.stop(Duration.ofSeconds(10));
        assertNoSecret(scaler);
    }

    /** Polls the connector's status until its {@code unreachable} lines are exactly {@code expected}. */
    private static void awaitUnreachable(Scaler scaler, List<String> expected) {
        Poll.until(
                "the scaler to report " + (expected.isEmpty() ? "nothing unreachable" : expected),
                Duration.ofSeconds(90),
                Duration.ofMillis(500),
                () -> {
                    ScalerHttp.Answer a = scaler.http.get(CONNECTOR);
                    List<String> lines = new ArrayList<>();
                    a.body().path("unreachable").forEach(u -> lines.add(u.asText()));
                    if (a.status() != 200 || !lines.equals(expected)) {
                        throw new IllegalStateException("status " + a.status() + ", unreachable " + lines);
                    }
                    return Optional.of(lines);
                });
    }

    /** The scaler printed exactly these lines at start, each once, after its command's name. */
    private static void assertStartLines(Scaler scaler, String... expected) throws IOException {
        List<String> printed = Files.readAllLines(scaler.process.logFile()).stream()
                .filter(l -> l.startsWith("kcscale serve: "))
                .map(l -> l.substring("kcscale serve: ".length()))
                .toList();
        assertEquals(
                List.of(expected).stream().sorted().toList(),
                printed.stream().sorted().toList(),
                String.join("\n", printed));
    }

    private static JsonNode finding(JsonNode report, String id) {
        for (JsonNode f : report.path("findings")) {
            if (f.path("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no finding " + id + " in " + report);
    }

    /** Neither the scaler's output nor anything it answered holds a secret of the stack. */
    private static void assertNoSecret(Scaler scaler) throws IOException {
        String log = Files.readString(scaler.process.logFile());
        for (String secret : stack.secrets()) {
            assertFalse(log.contains(secret), "the scaler's log holds a secret: " + scaler.process.logFile());
        }
    }

    private record Scaler(ChildJvm process, ScalerHttp http) {}

    /**
     * Starts {@code serve --config} with the settings a user of this secured pipeline writes, with
     * {@code overrides} laid over them (a key mapped to "" is left out).
     */
    private static Scaler scaler(String name, Map<String, String> overrides) throws IOException {
        Path secrets = DATA.resolve("scaler-secrets");
        Map<String, String> settings = new java.util.TreeMap<>(Map.ofEntries(
                Map.entry("connect.url", stack.connectUrl().toString()),
                Map.entry("connect.username", SecureStack.SCALER_USER),
                Map.entry(
                        "connect.password.file",
                        secrets.resolve("connect-password").toString()),
                Map.entry("kafka.bootstrap.servers", stack.kafkaBootstrap()),
                Map.entry("kafka.security.protocol", "SASL_SSL"),
                Map.entry("kafka.sasl.mechanism", "SCRAM-SHA-512"),
                Map.entry("kafka.config.providers", "file"),
                Map.entry(
                        "kafka.config.providers.file.class",
                        "org.apache.kafka.common.config.provider.FileConfigProvider"),
                Map.entry(
                        "kafka.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                                + SecureStack.SCALER_USER + "\" password=\"${file:"
                                + secrets.resolve("kafka.properties") + ":password}\";"),
                Map.entry("kafka.ssl.truststore.type", "PKCS12"),
                Map.entry(
                        "kafka.ssl.truststore.location",
                        stack.certificates().truststore().toString()),
                Map.entry(
                        "kafka.ssl.truststore.password",
                        "${file:" + secrets.resolve("kafka.properties") + ":truststore.password}"),
                Map.entry("elasticsearch.url", stack.elasticsearchUrl().toString()),
                Map.entry(
                        "elasticsearch.api.key.file",
                        secrets.resolve("elasticsearch-api-key").toString()),
                Map.entry("tls.truststore", stack.certificates().truststore().toString()),
                Map.entry(
                        "tls.truststore.password.file",
                        secrets.resolve("truststore-password").toString()),
                Map.entry("state.dir", DATA.resolve("scaler-" + name).toString()),
                Map.entry("autoscale.interval.seconds", "2")));
        overrides.forEach((k, v) -> {
            if (v.isEmpty()) {
                settings.remove(k);
            } else {
                settings.put(k, v);
            }
        });
        Path file = DATA.resolve("scaler-" + name + ".properties");
        java.util.Properties properties = new java.util.Properties();
        properties.putAll(settings);
        try (var out = Files.newBufferedWriter(file)) {
            properties.store(out, "the scaler against the secured stack (" + name + ")");
        }
        int port = FreePort.any();
        ChildJvm process = ChildJvm.start(
                "scaler-" + name,
                new InstallLayout(HOME).scalerClasspath(),
                List.of("-Xmx256m"),
                "io.kcscale.scaler.service.ServeCommand",
                List.of("serve", "--config", file.toString(), "--port", String.valueOf(port)),
                DATA.resolve("logs/scaler-" + name + ".log"));
        scalers.add(process);
        ScalerHttp http = new ScalerHttp(URI.create("http://127.0.0.1:" + port));
        Poll.untilTrue(
                "scaler " + name + " to listen",
                Duration.ofSeconds(60),
                Duration.ofMillis(250),
                () -> {
                    if (!process.isAlive()) {
                        throw new Poll.Abort("scaler " + name + " exited: " + process.logTail(20));
                    }
                    try {
                        return http.get("/openapi.json").status() == 200;
                    } catch (RuntimeException e) {
                        return false;
                    }
                },
                () -> process.logTail(20));
        return new Scaler(process, http);
    }
}
