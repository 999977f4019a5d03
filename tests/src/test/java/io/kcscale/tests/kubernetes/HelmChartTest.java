package io.kcscale.tests.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kcscale.scaler.service.ServeCommand;
import io.kcscale.scaler.service.Setting;
import io.kcscale.tests.docs.DocsPages;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.CrdSchemas;
import io.kcscale.tests.fixtures.Helm;
import io.kcscale.tests.fixtures.ReleaseArtifact;
import io.kcscale.tests.fixtures.RepositoryFiles;
import io.kcscale.tests.fixtures.ScalerOpenApi;
import io.strimzi.api.ResourceLabels;
import io.strimzi.api.kafka.model.connect.KafkaConnectResources;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * kubernetes/chart rendered by {@code helm template} for each value set of its {@code ci/} folder (at least three),
 * {@code helm lint --strict} clean for each, and every rendered object validated: built-in kinds by {@code
 * kubernetes-validate --strict} (no cluster needed), the {@code ScaledObject} by KEDA's CRD schema and the {@code
 * ServiceMonitor} by prometheus-operator's. Then what schemas cannot know, for every value set: the Role grants only
 * what a scale needs, the probes call routes the scaler serves, every flag is {@code serve}'s, the settings file holds
 * only the scaler's keys and no secret, each secret is a file from a Secret, the budget keeps a replica, Strimzi's
 * network policy is opened on Strimzi's own pod labels, and KEDA reads a route the scaler serves under a host name it
 * admits. The values' schema names exactly the scaler's settings ({@code -Dkcscale.docs.write=true} rewrites it).
 */
class HelmChartTest {

    private static final String NAMESPACE = "kafka";
    private static final String RELEASE = "kcscale";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path SCHEMA = Helm.CHART.resolve("values.schema.json");

    /** Each value set's name and what helm renders with it, rendered once, when a test first asks. */
    private static Map<String, List<JsonNode>> rendered;

    private static synchronized Map<String, List<JsonNode>> rendered() {
        if (rendered == null) {
            Map<String, List<JsonNode>> sets = new LinkedHashMap<>();
            for (Path values : valueSets()) {
                sets.put(values.getFileName().toString(), Helm.render(RELEASE, NAMESPACE, List.of(values)));
            }
            assertTrue(sets.size() >= 4, "value sets in kubernetes/chart/ci and the docs: " + sets.keySet());
            rendered = sets;
        }
        return rendered;
    }

    @Test
    void helmLintIsCleanForEveryValueSet() {
        for (Path values : valueSets()) {
            Commands.Result r =
                    Helm.run(List.of("lint", "--strict", Helm.CHART.toString(), "--values", values.toString()));
            assertEquals(0, r.exit(), values.getFileName() + ":\n" + r.output());
            assertFalse(r.output().contains("[WARNING]") || r.output().contains("[ERROR]"), r.output());
        }
    }

    @Test
    void everyRenderedObjectOfABuiltInKindPassesKubernetesValidateStrictly(@TempDir Path dir) throws IOException {
        List<String> command = new ArrayList<>(List.of("kubernetes-validate", "--strict", "--no-warn"));
        for (Map.Entry<String, List<JsonNode>> set : rendered().entrySet()) {
            for (JsonNode object : set.getValue()) {
                if (!custom(object)) {
                    Path f = dir.resolve(set.getKey() + "-" + command.size() + ".yaml");
                    Files.writeString(f, YAML.writeValueAsString(object));
                    command.add(f.toString());
                }
            }
        }
        String out = Commands.runOk(dir, Duration.ofMinutes(3), command);
        assertEquals(
                command.size() - 3,
                out.lines().filter(l -> l.contains(" passed ")).count(),
                out);
    }

    /** The CRD each custom kind the chart renders is checked against (vendored with its source and commit). */
    private static final Map<String, String> CRDS = Map.of(
            "keda.sh/ScaledObject", "keda/keda.sh_scaledobjects.yaml",
            "monitoring.coreos.com/ServiceMonitor", "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml");

    @Test
    void everyRenderedCustomResourcePassesItsCrdSchema(@TempDir Path dir) {
        Map<String, Integer> checked = new TreeMap<>();
        List<String> failed = new ArrayList<>();
        rendered().forEach((set, objects) -> {
            for (JsonNode object : objects) {
                if (custom(object)) {
                    String kind = object.path("apiVersion").asText().split("/")[0] + "/"
                            + object.path("kind").asText();
                    assertTrue(CRDS.containsKey(kind), set + ": no CRD is vendored to check a " + kind);
                    String result = CrdSchemas.check(CrdSchemas.vendored(CRDS.get(kind)), List.of(object), dir)
                            .get(0);
                    if (!result.equals("passed")) {
                        failed.add(set + ": " + kind + ": " + result);
                    }
                    checked.merge(kind, 1, Integer::sum);
                }
            }
        });
        assertEquals(List.of(), failed);
        assertEquals(CRDS.keySet(), checked.keySet(), "a value set renders each custom kind: " + checked);
    }

    @Test
    void theRoleAllowsOnlyGetListWatchAndPatchOnKafkaConnectorsToThePodsServiceAccount() {
        int roles = 0;
        for (Map.Entry<String, List<JsonNode>> set : rendered().entrySet()) {
            Optional<JsonNode> role = optional(set.getValue(), "Role");
            boolean strimzi = args(set.getValue()).stream().anyMatch(a -> a.startsWith("--kubernetes-namespace="));
            assertEquals(strimzi, role.isPresent(), set.getKey() + ": a Role exactly when the scaler asks Kubernetes");
            if (role.isEmpty()) {
                continue;
            }
            roles++;
            JsonNode rules = role.get().path("rules");
            assertEquals(1, rules.size(), rules.toString());
            assertEquals(List.of("kafka.strimzi.io"), strings(rules.get(0).path("apiGroups")));
            assertEquals(List.of("kafkaconnectors"), strings(rules.get(0).path("resources")));
            assertEquals(
                    Set.of("get", "list", "watch", "patch"),
                    new HashSet<>(strings(rules.get(0).path("verbs"))));
            JsonNode binding = only(set.getValue(), "RoleBinding");
            assertEquals(
                    role.get().path("metadata").path("name"),
                    binding.path("roleRef").path("name"));
            JsonNode subject = binding.path("subjects").get(0);
            assertEquals(only(set.getValue(), "ServiceAccount").path("metadata").path("name"), subject.path("name"));
            assertEquals(NAMESPACE, subject.path("namespace").asText());
            assertEquals(subject.path("name"), pod(set.getValue()).path("serviceAccountName"));
        }
        assertTrue(roles >= 1, "a value set renders the Role");
    }

    @Test
    void theProbesCallRoutesTheScalerServesAndEveryFlagIsServes() {
        JsonNode openApi = RepositoryFiles.json(
                RepositoryFiles.home().resolve("scaler/service/src/main/resources/api/openapi.json"));
        CommandLine serve = new CommandLine(ServeCommand.newSpec());
        rendered().forEach((set, objects) -> {
            JsonNode container = pod(objects).path("containers").get(0);
            for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                String path = container.path(probe).path("httpGet").path("path").asText();
                assertTrue(openApi.path("paths").path(path).has("get"), set + ": " + probe + " calls " + path);
            }
            List<String> args = args(objects);
            assertEquals("serve", args.get(0));
            for (String arg : args.subList(1, args.size())) {
                String flag = arg.split("=", 2)[0];
                assertNotNull(serve.getCommandSpec().findOption(flag), set + ": " + flag + " is not a flag of serve");
                assertFalse(flag.equals("--token"), "a token on the command line shows in ps");
            }
            assertTrue(
                    container
                            .path("securityContext")
                            .path("readOnlyRootFilesystem")
                            .asBoolean(),
                    set);
            assertTrue(pod(objects).path("securityContext").path("runAsNonRoot").asBoolean(), set);
            assertTrue(
                    pod(objects)
                            .path("volumes")
                            .findValues("persistentVolumeClaim")
                            .isEmpty(),
                    "policies live in a Kafka topic, not on a volume");
        });
    }

    /**
     * The settings file holds only the scaler's keys, no secret's value, and each secret as a file: its path lies in
     * a volume mounted from a Secret. The token is one of them, as {@code --bind=0.0.0.0} requires.
     */
    @Test
    void theSettingsFileHoldsOnlyTheScalersKeysAndEachSecretIsAFileFromASecret() throws IOException {
        for (Map.Entry<String, List<JsonNode>> set : rendered().entrySet()) {
            Properties settings = new Properties();
            settings.load(new StringReader(only(set.getValue(), "ConfigMap")
                    .path("data")
                    .path("scaler.properties")
                    .asText()));
            JsonNode pod = pod(set.getValue());
            Map<String, JsonNode> volumes = new LinkedHashMap<>();
            pod.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
            for (String key : settings.stringPropertyNames()) {
                Optional<Setting> setting = Setting.ofKey(key);
                assertTrue(setting.isPresent(), set.getKey() + ": " + key + " is not a settings key");
                assertFalse(setting.get().secret() && key.equals(setting.get().key()), key + ": a secret's value");
                if (setting.get().secret()) {
                    Path file = Path.of(settings.getProperty(key));
                    JsonNode mount = mountHolding(pod.path("containers").get(0), file);
                    JsonNode volume = volumes.get(mount.path("name").asText());
                    String secretKey = file.getFileName().toString();
                    assertTrue(
                            volume.path("secret")
                                    .path("items")
                                    .findValuesAsText("key")
                                    .contains(secretKey),
                            set.getKey() + ": " + key + " is no key of a Secret volume: " + volume);
                }
            }
            assertTrue(settings.containsKey("token.file"), set.getKey() + ": serve binds beyond loopback");
            for (Setting s : Setting.pipeline()) {
                assertTrue(settings.containsKey(s.key()), set.getKey() + ": " + s.key());
            }
        }
    }

    @Test
    void aBudgetKeepsAReplicaThroughADrainWhereThereAreTwoOrMore() {
        rendered().forEach((set, objects) -> {
            int replicas =
                    only(objects, "Deployment").path("spec").path("replicas").asInt();
            Optional<JsonNode> budget = optional(objects, "PodDisruptionBudget");
            assertEquals(replicas >= 2, budget.isPresent(), set + ": " + replicas + " replicas");
            budget.ifPresent(b -> {
                int min = b.path("spec").path("minAvailable").asInt();
                assertTrue(min >= 1 && min < replicas, set + ": minAvailable " + min + " of " + replicas);
                assertEquals(
                        only(objects, "Deployment")
                                .path("spec")
                                .path("selector")
                                .path("matchLabels"),
                        b.path("spec").path("selector").path("matchLabels"));
            });
        });
    }

    /**
     * Strimzi 0.45's policy selects a KafkaConnect's pods by its selector labels ({@code strimzi.io/cluster},
     * {@code strimzi.io/name}, {@code strimzi.io/kind}: cluster-operator's KafkaConnectCluster#generateNetworkPolicy);
     * the chart's selects the same pods, read here from Strimzi's own api classes, and admits the scaler's pods to
     * the REST port (8083) and the exporter's (9404).
     */
    @Test
    void theStrimziPolicyAdmitsTheScalerToEachConnectPodsRestAndExporterPorts() {
        int policies = 0;
        for (Map.Entry<String, List<JsonNode>> set : rendered().entrySet()) {
            for (JsonNode policy : all(set.getValue(), "NetworkPolicy")) {
                JsonNode selector = policy.path("spec").path("podSelector").path("matchLabels");
                if (!selector.has(ResourceLabels.STRIMZI_CLUSTER_LABEL)) {
                    continue;
                }
                policies++;
                String cluster =
                        selector.path(ResourceLabels.STRIMZI_CLUSTER_LABEL).asText();
                assertEquals(
                        "KafkaConnect",
                        selector.path(ResourceLabels.STRIMZI_KIND_LABEL).asText());
                assertEquals(
                        KafkaConnectResources.componentName(cluster),
                        selector.path(ResourceLabels.STRIMZI_NAME_LABEL).asText());
                JsonNode rule = policy.path("spec").path("ingress").get(0);
                assertEquals(
                        only(set.getValue(), "Deployment")
                                .path("spec")
                                .path("selector")
                                .path("matchLabels"),
                        rule.path("from").get(0).path("podSelector").path("matchLabels"));
                assertEquals(
                        Set.of(8083, 9404),
                        new HashSet<>(rule.path("ports").findValues("port").stream()
                                .map(JsonNode::asInt)
                                .toList()));
            }
        }
        assertTrue(policies >= 1, "a value set renders the Strimzi policy");
    }

    /** KEDA's trigger reads a route and a field of the scaler's API, by a name the scaler admits, on its Service. */
    @Test
    void kedaReadsTheRecommendationByANameTheScalerAdmits() {
        int triggers = 0;
        for (Map.Entry<String, List<JsonNode>> set : rendered().entrySet()) {
            for (JsonNode scaled : all(set.getValue(), "ScaledObject")) {
                triggers++;
                JsonNode target = scaled.path("spec").path("scaleTargetRef");
                assertEquals(
                        "kafka.strimzi.io/v1beta2", target.path("apiVersion").asText());
                assertEquals("KafkaConnect", target.path("kind").asText());
                JsonNode trigger = scaled.path("spec").path("triggers").get(0);
                assertEquals("metrics-api", trigger.path("type").asText());
                assertEquals("AverageValue", trigger.path("metricType").asText());
                URI url = URI.create(trigger.path("metadata").path("url").asText());
                JsonNode service = only(set.getValue(), "Service");
                assertEquals(service.path("metadata").path("name").asText() + "." + NAMESPACE + ".svc", url.getHost());
                assertEquals(
                        service.path("spec").path("ports").get(0).path("port").asInt(), url.getPort());
                assertTrue(
                        args(set.getValue())
                                .contains("--allowed-host="
                                        + url.getHost().replace("." + NAMESPACE + ".", ".$(POD_NAMESPACE).")),
                        set.getKey() + ": the scaler answers 421 to the host " + url.getHost());
                Optional<JsonNode> answer = ScalerOpenApi.answerOfGet(url.getPath());
                assertTrue(answer.isPresent(), "GET " + url.getPath() + " is not a route of the scaler");
                String field = trigger.path("metadata").path("valueLocation").asText();
                assertTrue(answer.get().path("properties").has(field), url.getPath() + " answers no " + field);
            }
        }
        assertTrue(triggers >= 1, "a value set renders the ScaledObject");
    }

    @Test
    void theServiceMonitorScrapesTheServicesPortAtMetrics() {
        int monitors = 0;
        for (Map.Entry<String, List<JsonNode>> set : rendered().entrySet()) {
            for (JsonNode monitor : all(set.getValue(), "ServiceMonitor")) {
                monitors++;
                JsonNode service = only(set.getValue(), "Service");
                JsonNode labels = service.path("metadata").path("labels");
                monitor.path("spec")
                        .path("selector")
                        .path("matchLabels")
                        .fields()
                        .forEachRemaining(l ->
                                assertEquals(l.getValue(), labels.path(l.getKey()), "the monitor selects the Service"));
                JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
                assertEquals(service.path("spec").path("ports").get(0).path("name"), endpoint.path("port"));
                assertEquals("/metrics", endpoint.path("path").asText());
            }
        }
        assertTrue(monitors >= 1, "a value set renders the ServiceMonitor");
    }

    /** A misspelt setting, a secret among the settings, a missing token: each refused by helm, in one line naming it. */
    @Test
    void helmRefusesAKeyTheScalerDoesNotHaveASecretInTheSettingsAndNoToken() {
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("settings.conect\\.url=http://x", "conect.url");
        refused.put("settings.token=s3cret", "token");
        refused.put("secrets.connect\\.username.secretName=x", "connect.username");
        refused.put("secrets.token=null", "token");
        refused.forEach((set, named) -> {
            Commands.Result r = Helm.run(List.of("template", RELEASE, Helm.CHART.toString(), "--set", set));
            assertNotEquals(0, r.exit(), set + " was accepted:\n" + r.output());
            assertTrue(r.output().contains(named), set + ": " + r.output());
        });
    }

    @Test
    void theChartsVersionsAreTheBuilds() {
        JsonNode chart = RepositoryFiles.yaml(Helm.CHART.resolve("Chart.yaml"));
        assertEquals(ReleaseArtifact.version(), chart.path("version").asText());
        assertEquals(ReleaseArtifact.version(), chart.path("appVersion").asText());
    }

    /**
     * values.schema.json's settings and secrets are exactly the scaler's (Setting.java): a key it does not have is
     * refused at {@code helm install}, and a secret is refused among the settings.
     */
    @Test
    void theValuesSchemaNamesEverySettingOfTheScaler() throws IOException {
        ObjectNode schema = (ObjectNode) JSON.readTree(SCHEMA.toFile());
        ObjectNode properties = (ObjectNode) schema.path("properties");
        ObjectNode settings = (ObjectNode) properties.path("settings");
        ObjectNode secrets = (ObjectNode) properties.path("secrets");
        JsonNodeFactory f = JsonNodeFactory.instance;

        ArrayNode plain = f.arrayNode();
        ArrayNode anyOf = f.arrayNode().add(f.objectNode().set("enum", plain));
        ArrayNode secretKeys = f.arrayNode();
        ArrayNode pipeline = f.arrayNode();
        for (Setting s : Setting.values()) {
            if (s.kind() == Setting.Kind.FAMILY) {
                anyOf.add(f.objectNode().put("pattern", "^" + s.key().replace(".", "\\.") + ".+$"));
            } else if (s.secret()) {
                secretKeys.add(s.key());
            } else {
                plain.add(s.key());
            }
        }
        Setting.pipeline().forEach(s -> pipeline.add(s.key()));
        if (Boolean.getBoolean("kcscale.docs.write")) {
            ((ObjectNode) settings.path("propertyNames")).set("anyOf", anyOf);
            settings.set("required", pipeline);
            ((ObjectNode) secrets.path("propertyNames")).set("enum", secretKeys);
            Files.writeString(SCHEMA, JSON.writeValueAsString(schema) + "\n");
        }
        assertEquals(anyOf, settings.path("propertyNames").path("anyOf"), "regenerate: -Dkcscale.docs.write=true");
        assertEquals(pipeline, settings.path("required"));
        assertEquals(secretKeys, secrets.path("propertyNames").path("enum"));
    }

    private static boolean custom(JsonNode object) {
        String group = object.path("apiVersion").asText().split("/")[0];
        return group.contains(".") && !group.endsWith(".k8s.io");
    }

    private static JsonNode mountHolding(JsonNode container, Path file) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (file.getParent().equals(Path.of(m.path("mountPath").asText()))) {
                return m;
            }
        }
        throw new AssertionError(file + " is in no volume mounted into the container");
    }

    private static List<String> args(List<JsonNode> objects) {
        return strings(pod(objects).path("containers").get(0).path("args"));
    }

    private static JsonNode pod(List<JsonNode> objects) {
        return only(objects, "Deployment").path("spec").path("template").path("spec");
    }

    private static List<JsonNode> all(List<JsonNode> objects, String kind) {
        return objects.stream()
                .filter(o -> o.path("kind").asText().equals(kind))
                .toList();
    }

    private static Optional<JsonNode> optional(List<JsonNode> objects, String kind) {
        List<JsonNode> found = all(objects, kind);
        assertTrue(found.size() <= 1, "more than one " + kind);
        return found.stream().findFirst();
    }

    private static JsonNode only(List<JsonNode> objects, String kind) {
        return optional(objects, kind).orElseThrow(() -> new AssertionError("no " + kind));
    }

    private static List<Path> valueSets;

    /**
     * The value sets of kubernetes/chart/ci, then each values file the docs show (a yaml block whose first line
     * names {@code helm install}), written to a scratch file.
     */
    private static synchronized List<Path> valueSets() {
        if (valueSets == null) {
            List<Path> sets = new ArrayList<>();
            try (Stream<Path> files = Files.list(Helm.CHART.resolve("ci"))) {
                files.filter(f -> f.toString().endsWith("-values.yaml"))
                        .sorted()
                        .forEach(sets::add);
                Path docs = Files.createTempDirectory("kcscale-chart-docs");
                docs.toFile().deleteOnExit();
                for (Path page : DocsPages.pages()) {
                    for (DocsPages.Block b : DocsPages.blocks(page)) {
                        if (b.language().equals("yaml")
                                && b.text().lines().findFirst().orElse("").contains("helm install")) {
                            Path f = docs.resolve(page.getFileName() + "-" + b.line() + "-values.yaml");
                            Files.writeString(f, b.text());
                            f.toFile().deleteOnExit();
                            sets.add(f);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            assertTrue(sets.stream().anyMatch(f -> !f.startsWith(Helm.CHART)), "the docs show a values file");
            valueSets = sets;
        }
        return valueSets;
    }

    /** Every {@code helm} command of the docs uses a verb helm has and flags its {@code --help} lists. */
    @Test
    void theDocsHelmCommandsUseFlagsHelmHas() {
        int commands = 0;
        for (Path page : DocsPages.pages()) {
            for (DocsPages.Block b : DocsPages.blocks(page)) {
                for (String line : b.text().lines().toList()) {
                    Matcher helm =
                            Pattern.compile("(?:^|[\\s#:])helm ([a-z]+)(.*)$").matcher(line);
                    if (!helm.find()) {
                        continue;
                    }
                    commands++;
                    Commands.Result help = Helm.run(List.of(helm.group(1), "--help"));
                    assertEquals(0, help.exit(), b.where() + ": helm " + helm.group(1) + ": " + help.output());
                    Matcher flag = Pattern.compile("(?<![\\w-])--[a-z][a-z-]*").matcher(helm.group(2));
                    while (flag.find()) {
                        assertTrue(
                                help.output().contains(flag.group()),
                                b.where() + ": helm " + helm.group(1) + " has no " + flag.group());
                    }
                }
            }
        }
        assertTrue(commands >= 2, "the docs' helm commands: " + commands);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
