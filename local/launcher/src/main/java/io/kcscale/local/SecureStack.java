package io.kcscale.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import javax.net.ssl.SSLContext;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.access.TlsTrust;

/**
 * The pipeline of {@link LocalStack}, secured as a production one is: Kafka reachable only over
 * SASL_SSL (SCRAM-SHA-512) with ACLs, the worker's and the sink's clients included; Connect's REST
 * API over HTTPS behind basic auth; Elasticsearch behind nginx, which terminates TLS and requires
 * basic auth or an {@code ApiKey} header. One CA, made at start, signs every certificate; every
 * password is random and in a file under {@code <data>/secrets/}. The scaler's principal
 * {@value #SCALER_USER} gets only the ACLs docs/own-pipeline.md lists; the tests start the scaler themselves.
 */
public final class SecureStack implements AutoCloseable {

    public static final String SCALER_USER = "kcscale";
    public static final String BROKER_USER = "kcscale-broker";
    public static final String CONNECT_USER = "kcscale-connect";
    public static final String NGINX = "nginx";

    // generous: a cold worker on a loaded machine may take many seconds over its first connector
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final InstallLayout layout;
    private final Path dataDir;
    private final Consumer<String> progress;
    private final RunningComponents components = new RunningComponents();
    private final Path secrets;
    private final String brokerPassword = Secrets.random();
    private final String connectPassword = Secrets.random();
    private final String scalerPassword = Secrets.random();
    private final String apiKey = Base64.getEncoder().encodeToString((SCALER_USER + ":" + Secrets.random()).getBytes(StandardCharsets.UTF_8));
    private StackCertificates certificates;
    private StackEndpoints endpoints;
    private URI elasticsearchProxy;
    private Path nginxConfig;

    private SecureStack(Path home, Path dataDir, Consumer<String> progress) {
        this.layout = new InstallLayout(home);
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.secrets = this.dataDir.resolve("secrets");
        this.progress = progress;
    }

    /**
     * Starts it all afresh in {@code dataDir} on free ports: {@code partitions} for topic {@code stocks},
     * the source producing {@code records} records at {@code ratePerSecond}. On any failure stops what
     * it had started and throws with the failing component's last log lines.
     */
    public static SecureStack start(Path home, Path dataDir, int partitions, double ratePerSecond, long records,
                                    Consumer<String> progress) {
        SecureStack stack = new SecureStack(home, dataDir, progress);
        stack.layout.requireBuilt();
        if (!StackState.runningComponents(stack.dataDir).isEmpty()) {
            throw new IllegalStateException("a stack already runs from " + stack.dataDir + ": `./kcscale down --data-dir` stops it");
        }
        try {
            stack.startAll(partitions, ratePerSecond, records);
            return stack;
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        }
    }

    private void startAll(int partitions, double ratePerSecond, long records) {
        StackPorts ports = freePorts();
        LocalStack.deleteRecursively(dataDir);
        certificates = StackCertificates.make(dataDir.resolve("tls"), Secrets.random());
        // the node's own address, which the sink and the readiness poll use; the scaler's URL is nginx's port (no scaler runs)
        endpoints = new StackEndpoints(StackPorts.HOST + ":" + ports.kafka(),
                List.of(URI.create("https://" + StackPorts.HOST + ":" + ports.connect().get(0))),
                URI.create("http://" + StackPorts.HOST + ":" + ports.elasticsearch()), URI.create("http://" + StackPorts.HOST + ":" + ports.scaler()),
                dataDir);
        elasticsearchProxy = URI.create("https://" + StackPorts.HOST + ":" + ports.scaler());
        ComponentStarter starter = new ComponentStarter(layout, ports, endpoints, progress);
        Readiness readiness = new Readiness(endpoints, progress);

        ChildJvm kafka = record(starter.kafka("secure/broker.properties", tlsValues(Map.of(
                        "BROKER_USER", BROKER_USER, "BROKER_PASSWORD", brokerPassword, "CONNECT_USER", CONNECT_USER)),
                List.of("--add-scram", "SCRAM-SHA-512=[name=" + BROKER_USER + ",password=" + brokerPassword + "]")));
        ChildJvm elasticsearch = record(starter.elasticsearch());
        try (KafkaReadingsClient admin = new KafkaReadingsClient(endpoints.kafkaBootstrap(), kafkaClient(BROKER_USER, brokerPassword), REQUEST_TIMEOUT)) {
            readiness.await(kafka, "Kafka to accept SASL_SSL clients", Duration.ofSeconds(90),
                    () -> Optional.of(complete(admin.admin().describeCluster().nodes())));
            createUsersAndAcls(admin.admin());
            complete(admin.admin().createTopics(List.of(new NewTopic(StackOptions.TOPIC, partitions, (short) 1))).all());
        }
        ChildJvm worker = record(starter.worker(0, "secure/worker.properties", tlsValues(Map.of(
                        "KAFKA_JAAS", jaas(CONNECT_USER, connectPassword))),
                List.of("-Djava.security.auth.login.config=" + connectJaasFile())));
        readiness.elasticsearch(elasticsearch);
        ChildJvm nginx = record(startNginx(starter, ports));
        PipelineTemplates templates = new PipelineTemplates(layout);
        try (ElasticsearchConnection es = elasticsearch()) {
            readiness.await(nginx, "nginx to pass authenticated requests to Elasticsearch", Duration.ofSeconds(30), () -> {
                try {
                    return es.client().ping().value() ? Optional.of(true) : Optional.empty();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            PipelineSetup.createIndex(es, StackOptions.INDEX, templates.indexDefinition(1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ConnectRestClient connect = connect();
        readiness.await(worker, "the worker's HTTPS API to offer the sink plugin", Duration.ofSeconds(240),
                () -> connect.connectorPlugins().contains(Readiness.SINK_CONNECTOR_CLASS)
                        ? Optional.of(true) : Optional.empty());
        connect.putConnectorConfig(StackOptions.SOURCE_CONNECTOR, templates.connectorConfig("stocks-datagen.json", Map.of(
                "TOPIC", StackOptions.TOPIC, "KEY_FIELD", "price", "RATE_PER_TASK", String.valueOf(ratePerSecond),
                "ITERATIONS", String.valueOf(records))));
        // the sink writes to the node itself: the proxy stands for the secured cluster the scaler observes
        connect.putConnectorConfig(StackOptions.SINK_CONNECTOR, templates.connectorConfig(SinkMode.INDEX.template(), Map.of(
                "TOPIC", StackOptions.TOPIC, "INDEX", StackOptions.INDEX, "SINK_TASKS", "1",
                "ES_HOST_PORT", StackPorts.HOST + ":" + ports.elasticsearch())));
        progress.accept("secured stack up: kafka SASL_SSL " + endpoints.kafkaBootstrap() + " | connect " + endpoints.connectUrl()
                + " | elasticsearch (nginx) " + elasticsearchProxy);
        StackState.write(dataDir, endpoints, components.list());
    }

    /** Free ports for every component; the scaler's slot carries nginx, since the tests start the scaler themselves. */
    private static StackPorts freePorts() {
        Ports ports = new Ports();
        try {
            return new StackPorts(ports.resolve(0, "Kafka", "-"), ports.resolve(0, "Kafka controller", "-"),
                    ports.resolve(0, "Elasticsearch HTTP", "-"), ports.resolve(0, "Elasticsearch transport", "-"),
                    ports.resolve(0, "nginx", "-"), List.of(ports.resolve(0, "Connect worker 0", "-")), List.of(), null, null);
        } finally {
            ports.release();
        }
    }

    /** The scaler's user and the worker's user with their SCRAM credentials; the scaler's ACLs. */
    private void createUsersAndAcls(Admin admin) {
        complete(admin.alterUserScramCredentials(List.of(scram(CONNECT_USER, connectPassword), scram(SCALER_USER, scalerPassword))).all());
        complete(admin.createAcls(scalerAcls()).all());
    }

    private static UserScramCredentialUpsertion scram(String user, String password) {
        return new UserScramCredentialUpsertion(user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password);
    }

    /**
     * Sets the Kafka password of the scaler's principal, as an operator rotating it would; {@code null}
     * restores the one the scaler's secrets hold. Clients logged in before must log in again within
     * the broker's {@code connections.max.reauth.ms}.
     */
    public void setScalerKafkaPassword(String password) {
        try (KafkaReadingsClient admin = adminAsBroker()) {
            complete(admin.admin().alterUserScramCredentials(List.of(scram(SCALER_USER, password == null ? scalerPassword : password))).all());
        }
    }

    /**
     * What the scaler needs: describe the topic and the sink's group, read the topic for the key sample; and its
     * own state topic (create, describe, read, write) and leadership group (read), named for the default scaler.cluster.id.
     */
    public static List<AclBinding> scalerAcls() {
        return List.of(
                acl(ResourceType.TOPIC, StackOptions.TOPIC, AclOperation.DESCRIBE),
                acl(ResourceType.TOPIC, StackOptions.TOPIC, AclOperation.READ),
                acl(ResourceType.GROUP, "connect-" + StackOptions.SINK_CONNECTOR, AclOperation.DESCRIBE),
                acl(ResourceType.TOPIC, SCALER_STATE_TOPIC, AclOperation.CREATE),
                acl(ResourceType.TOPIC, SCALER_STATE_TOPIC, AclOperation.DESCRIBE),
                acl(ResourceType.TOPIC, SCALER_STATE_TOPIC, AclOperation.READ),
                acl(ResourceType.TOPIC, SCALER_STATE_TOPIC, AclOperation.WRITE),
                acl(ResourceType.GROUP, "kcscale-default-leader", AclOperation.READ));
    }

    private static final String SCALER_STATE_TOPIC = "kcscale-default-state";

    private static AclBinding acl(ResourceType type, String name, AclOperation operation) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry("User:" + SCALER_USER, "*", operation, AclPermissionType.ALLOW));
    }

    private ChildJvm startNginx(ComponentStarter starter, StackPorts ports) {
        Path dir = dataDir.resolve(NGINX);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writeAuthorizedHeaders(true);
        nginxConfig = starter.writeConfig("nginx.conf", "secure/nginx.conf", Map.of("NGINX_DIR", dir.toString(),
                "HOST", StackPorts.HOST, "PROXY_PORT", String.valueOf(ports.scaler()),
                "ELASTICSEARCH_PORT", String.valueOf(ports.elasticsearch()),
                "CERTIFICATE", certificates.certificate().toString(), "CERTIFICATE_KEY", certificates.certificateKey().toString()));
        progress.accept("starting nginx (TLS, authentication) on " + elasticsearchProxy);
        return ChildJvm.startProcess(NGINX, List.of(nginxBinary(), "-p", dir.toString(), "-c", nginxConfig.toString()),
                starter.logFile(NGINX));
    }

    /** The Authorization headers nginx passes on: the scaler's basic auth, and its API key when {@code apiKeyAccepted}. */
    private void writeAuthorizedHeaders(boolean apiKeyAccepted) {
        Secrets.write(dataDir.resolve(NGINX).resolve("authorized.map"),
                "\"" + basicAuthorization() + "\" 1;\n"
                        + (apiKeyAccepted ? "\"ApiKey " + apiKey + "\" 1;\n" : ""));
    }

    /**
     * Revokes or restores the scaler's API key at the proxy, as an operator would, and has nginx reload
     * its configuration ({@code nginx -s reload}): the change applies to the next request.
     */
    public void acceptApiKey(boolean accepted) {
        writeAuthorizedHeaders(accepted);
        Path dir = dataDir.resolve(NGINX);
        ChildJvm reload = ChildJvm.startProcess("nginx-reload", List.of(nginxBinary(), "-p", dir.toString(), "-c", nginxConfig.toString(),
                "-s", "reload"), dataDir.resolve("logs/nginx-reload.log"));
        Poll.untilTrue("nginx -s reload to finish", Duration.ofSeconds(30), Duration.ofMillis(100),
                () -> !reload.isAlive(), () -> "still reloading");
    }

    private static String nginxBinary() {
        for (String candidate : List.of("/usr/sbin/nginx", "/usr/bin/nginx")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new StackStartException("the secured stack needs nginx (Debian: apt-get install nginx)", null);
    }

    private Path connectJaasFile() {
        Path users = Secrets.write(secrets.resolve("connect-rest-users.properties"), SCALER_USER + "=" + scalerPassword + "\n");
        Path jaas = dataDir.resolve("config/connect-jaas.conf");
        try {
            Files.createDirectories(jaas.getParent());
            Files.writeString(jaas, ConfigTemplate.load(layout.configs().resolve("secure/connect-jaas.conf"))
                    .render(Map.of("USERS_FILE", users.toString())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jaas, e);
        }
        return jaas;
    }

    private Map<String, String> tlsValues(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.putAll(Map.of("KEYSTORE", certificates.keystore().toString(), "KEYSTORE_PASSWORD", certificates.storePassword(),
                "TRUSTSTORE", certificates.truststore().toString(), "TRUSTSTORE_PASSWORD", certificates.storePassword()));
        return all;
    }

    /** The scaler's HTTP basic auth header, which Connect and nginx accept. */
    private String basicAuthorization() {
        return "Basic " + Base64.getEncoder().encodeToString((SCALER_USER + ":" + scalerPassword).getBytes(StandardCharsets.UTF_8));
    }

    private static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    private Map<String, Object> kafkaClient(String user, String password) {
        // without rebootstrapping, which spins while the broker is still starting
        return Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512", "sasl.jaas.config", jaas(user, password),
                "ssl.truststore.type", "PKCS12", "ssl.truststore.location", certificates.truststore().toString(),
                "ssl.truststore.password", certificates.storePassword(), "metadata.recovery.strategy", "none");
    }

    private SSLContext tls() {
        return TlsTrust.fromTruststore(certificates.truststore(), certificates.storePassword());
    }

    private static <T> T complete(KafkaFuture<T> future) {
        try {
            return future.get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackStartException("interrupted asking Kafka", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka: " + e.getMessage(), e);
        }
    }

    /** An Admin client as the broker's own (super) user: tests grant and revoke ACLs, change credentials. */
    public KafkaReadingsClient adminAsBroker() {
        return new KafkaReadingsClient(endpoints.kafkaBootstrap(), kafkaClient(BROKER_USER, brokerPassword), REQUEST_TIMEOUT);
    }

    /** Connect's REST API as the scaler's user, over HTTPS. */
    public ConnectRestClient connect() {
        return new ConnectRestClient(endpoints.connectUrl(), REQUEST_TIMEOUT, Backoff.DEFAULT,
                Optional.of(basicAuthorization()), tls());
    }

    /** Elasticsearch through nginx with the scaler's API key. */
    public ElasticsearchConnection elasticsearch() {
        return new ElasticsearchConnection(elasticsearchProxy, (int) REQUEST_TIMEOUT.toMillis(),
                Optional.of("ApiKey " + apiKey), tls());
    }

    public String kafkaBootstrap() {
        return endpoints.kafkaBootstrap();
    }

    public URI connectUrl() {
        return endpoints.connectUrl();
    }

    /** nginx, in front of Elasticsearch. */
    public URI elasticsearchUrl() {
        return elasticsearchProxy;
    }

    public StackCertificates certificates() {
        return certificates;
    }

    public Path dataDir() {
        return dataDir;
    }

    /**
     * Writes the scaler's secrets in {@code dir}: {@code connect-password}, {@code elasticsearch-password},
     * {@code elasticsearch-api-key}, {@code truststore-password}, and {@code kafka.properties} (keys
     * {@code password} and {@code truststore.password}) for Kafka's FileConfigProvider.
     */
    public void writeScalerSecrets(Path dir) {
        Secrets.write(dir.resolve("connect-password"), scalerPassword);
        Secrets.write(dir.resolve("elasticsearch-password"), scalerPassword);
        Secrets.write(dir.resolve("elasticsearch-api-key"), apiKey);
        Secrets.write(dir.resolve("truststore-password"), certificates.storePassword());
        Secrets.write(dir.resolve("kafka.properties"), "password=" + scalerPassword + "\ntruststore.password="
                + certificates.storePassword() + "\n");
    }

    /** Every secret of the stack, for tests that assert none reaches a log. */
    public List<String> secrets() {
        return List.of(brokerPassword, connectPassword, scalerPassword, apiKey, certificates.storePassword());
    }

    /** A component by name: {@code kafka}, {@code elasticsearch}, {@code connect-0}, {@code nginx}. */
    public ChildJvm component(String name) {
        return components.named(name);
    }

    private ChildJvm record(ChildJvm child) {
        components.add(child);
        StackState.write(dataDir, endpoints, components.list());
        return child;
    }

    @Override
    public void close() {
        components.stopAll(progress);
        StackState.delete(dataDir);
    }
}
