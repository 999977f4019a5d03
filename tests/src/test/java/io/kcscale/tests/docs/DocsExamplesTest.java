package io.kcscale.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kcscale.scaler.service.Setting;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.CrdSchemas;
import io.kcscale.tests.fixtures.ScalerOpenApi;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' fenced {@code json}, {@code yaml} and {@code properties} examples parse; a scaler settings file
 * holds only keys the scaler has; Kubernetes examples of built-in kinds pass {@code kubernetes-validate
 * --strict}, as {@code KubernetesManifestsTest} holds kubernetes/ to it.
 *
 * <p>What cannot be validated here: {@code kubernetes-validate} bundles no schema for custom resources, and no
 * API server, KEDA, HPA controller or Strimzi operator runs on these machines, so no example is applied. For
 * those resources this test checks what it can: a {@code ScaledObject} passes KEDA's CRD schema, the scale
 * target is a {@code KafkaConnect}, whose scale subresource declares a
 * label selector in Strimzi's own model classes (the HPA needs one; {@code KafkaConnector}'s declares none), and a
 * {@code metrics-api} trigger reads a route of the scaler's OpenAPI document and a field of that route's answer; a
 * {@code KafkaUser} passes Strimzi's CRD schema.
 */
class DocsExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> CUSTOM_GROUPS = Set.of("keda.sh", "kafka.strimzi.io");

    @Test
    void everyJsonExampleParses() {
        List<String> broken = new ArrayList<>();
        int n = 0;
        for (DocsPages.Block b : blocks("json")) {
            n++;
            try {
                JSON.readTree(b.text());
            } catch (IOException e) {
                broken.add(b.where() + ": " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        assertTrue(n >= 2, n + " json examples");
        assertEquals(List.of(), broken, "json examples that do not parse");
    }

    @Test
    void everyYamlExampleParses() {
        List<String> broken = new ArrayList<>();
        for (DocsPages.Block b : blocks("yaml")) {
            try {
                documents(b);
            } catch (IOException e) {
                broken.add(b.where() + ": " + e.getMessage());
            }
        }
        assertFalse(blocks("yaml").isEmpty());
        assertEquals(List.of(), broken, "yaml examples that do not parse");
    }

    @Test
    void everyPropertiesExampleParsesAndASettingsFileHoldsOnlyTheScalersKeys() throws IOException {
        List<String> unknown = new ArrayList<>();
        int settingsFiles = 0;
        for (DocsPages.Block b : blocks("properties")) {
            Properties p = new Properties();
            p.load(new StringReader(b.text()));
            assertFalse(p.isEmpty(), b.where() + ": an empty properties example");
            if (b.text().contains("kcscale serve --config")) {
                settingsFiles++;
                for (String key : p.stringPropertyNames()) {
                    if (Setting.ofKey(key).isEmpty()) {
                        unknown.add(b.where() + ": " + key);
                    }
                }
            }
        }
        assertTrue(settingsFiles >= 1, "the docs show a scaler settings file");
        assertEquals(List.of(), unknown, "settings keys the scaler does not have");
    }

    @Test
    void kubernetesExamplesOfBuiltInKindsPassKubernetesValidate(@TempDir Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (DocsPages.Block b : blocks("yaml")) {
            for (JsonNode d : documents(b)) {
                String group = d.path("apiVersion").asText().contains("/")
                        ? d.path("apiVersion").asText().split("/")[0]
                        : "";
                if (d.has("kind") && !CUSTOM_GROUPS.contains(group)) {
                    Path f = dir.resolve("example-" + files.size() + ".yaml");
                    Files.writeString(f, YAML.writeValueAsString(d));
                    files.add(f);
                }
            }
        }
        assertFalse(files.isEmpty(), "the docs show a Kubernetes resource of a built-in kind");
        List<String> command = new ArrayList<>(List.of("kubernetes-validate", "--strict", "--no-warn"));
        files.forEach(f -> command.add(f.toString()));
        String out = Commands.runOk(dir, Duration.ofMinutes(2), command);
        assertEquals(
                files.size(), out.lines().filter(l -> l.contains(" passed ")).count(), out);
    }

    @Test
    void scaleTargetsAreKafkaConnectWorkersWhoseScaleSubresourceHasASelector() throws IOException {
        int targets = 0;
        for (DocsPages.Block b : blocks("yaml")) {
            for (JsonNode d : documents(b)) {
                JsonNode target = d.path("spec").path("scaleTargetRef");
                if (target.isMissingNode()) {
                    continue;
                }
                targets++;
                assertEquals(
                        "kafka.strimzi.io/v1beta2", target.path("apiVersion").asText(), b.where());
                assertEquals(
                        "KafkaConnect",
                        target.path("kind").asText(),
                        b.where()
                                + ": the HPA (and KEDA through it) needs a scale subresource with a label selector; KafkaConnector's has none");
            }
        }
        assertTrue(targets >= 2, targets + " scale targets in the docs (the KEDA and the HPA example)");
        // Strimzi's CRDs are generated from its model classes' @Crd annotations, which the class files keep
        // (the annotation type itself is not on this classpath, so they are read as the class file's strings)
        String connect = classFile("io/strimzi/api/kafka/model/connect/KafkaConnect.class");
        String connector = classFile("io/strimzi/api/kafka/model/connector/KafkaConnector.class");
        assertTrue(
                connect.contains("labelSelectorPath") && connect.contains(".status.labelSelector"),
                "KafkaConnect's scale subresource declares a label selector");
        assertTrue(connector.contains(".spec.tasksMax"), "KafkaConnector has a scale subresource on spec.tasksMax");
        assertFalse(
                connector.contains("labelSelectorPath"),
                "KafkaConnector's scale subresource declares no label selector");
    }

    /** The CRD each custom kind the docs show is checked against (vendored with its source and commit). */
    private static final Map<String, String> CRDS = Map.of(
            "keda.sh/ScaledObject", "keda/keda.sh_scaledobjects.yaml",
            "kafka.strimzi.io/KafkaUser", "strimzi/kafkausers.kafka.strimzi.io.yaml");

    /**
     * Every custom resource of the docs passes its CRD's schema ({@link CrdSchemas}: KEDA's for a {@code ScaledObject},
     * Strimzi's for a {@code KafkaUser}), unknown fields refused as the API server's pruning would drop them. A copy
     * of the first {@code ScaledObject} with a misspelt field must fail, so the check can.
     */
    @Test
    void customResourcesPassTheirCrdSchema(@TempDir Path dir) throws IOException {
        List<String> failed = new ArrayList<>();
        Map<String, Integer> checked = new TreeMap<>();
        JsonNode firstScaledObject = null;
        for (DocsPages.Block b : blocks("yaml")) {
            for (JsonNode d : documents(b)) {
                String group = d.path("apiVersion").asText().split("/")[0];
                if (!CUSTOM_GROUPS.contains(group) || !d.has("kind")) {
                    continue;
                }
                String kind = group + "/" + d.path("kind").asText();
                assertTrue(CRDS.containsKey(kind), b.where() + ": no CRD is vendored to check a " + kind);
                String result = CrdSchemas.check(CrdSchemas.vendored(CRDS.get(kind)), List.of(d), dir)
                        .get(0);
                if (!result.equals("passed")) {
                    failed.add(b.where() + ": " + result);
                }
                checked.merge(kind, 1, Integer::sum);
                if (kind.equals("keda.sh/ScaledObject") && firstScaledObject == null) {
                    firstScaledObject = d;
                }
            }
        }
        assertEquals(List.of(), failed, "custom resources their CRD refuses");
        assertEquals(CRDS.keySet(), checked.keySet(), "the docs show a ScaledObject and a KafkaUser: " + checked);
        ObjectNode misspelt = firstScaledObject.deepCopy();
        ((ObjectNode) misspelt.path("spec")).put("maxReplicasCount", 5);
        String refused = CrdSchemas.check(CrdSchemas.vendored(CRDS.get("keda.sh/ScaledObject")), List.of(misspelt), dir)
                .get(0);
        assertTrue(refused.contains("maxReplicasCount"), "a misspelt field is refused: " + refused);
    }

    @Test
    void metricsApiTriggersReadARouteAndAFieldOfTheScalersApi() throws IOException {
        int triggers = 0;
        for (DocsPages.Block b : blocks("yaml")) {
            for (JsonNode d : documents(b)) {
                for (JsonNode t : d.path("spec").path("triggers")) {
                    if (!t.path("type").asText().equals("metrics-api")) {
                        continue;
                    }
                    triggers++;
                    String path =
                            URI.create(t.path("metadata").path("url").asText()).getPath();
                    Optional<JsonNode> answer = ScalerOpenApi.answerOfGet(path);
                    assertTrue(answer.isPresent(), b.where() + ": GET " + path + " is not a route of openapi.json");
                    String field = t.path("metadata").path("valueLocation").asText();
                    assertTrue(
                            answer.get().path("properties").has(field),
                            b.where() + ": " + field + " is not a field of GET " + path + "'s answer");
                    // an average-value target makes the replicas ceil(figure / targetValue); Value would multiply the
                    // replicas now
                    assertEquals("AverageValue", t.path("metricType").asText(), b.where());
                    assertEquals(
                            "workers",
                            field,
                            b.where() + ": KEDA sizes the workers, so it reads the workers they need");
                    assertEquals(
                            "1",
                            t.path("metadata").path("targetValue").asText(),
                            b.where() + ": one replica per worker recommended");
                }
            }
        }
        assertTrue(triggers >= 1, "the docs show a metrics-api trigger");
    }

    private static String classFile(String resource) throws IOException {
        try (var in = DocsExamplesTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertTrue(in != null, resource + " is not on the classpath");
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    private static List<DocsPages.Block> blocks(String language) {
        List<DocsPages.Block> blocks = new ArrayList<>();
        for (Path page : DocsPages.pages()) {
            DocsPages.blocks(page).stream()
                    .filter(b -> b.language().equals(language))
                    .forEach(blocks::add);
        }
        return blocks;
    }

    private static List<JsonNode> documents(DocsPages.Block b) throws IOException {
        List<JsonNode> all = new ArrayList<>();
        try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(b.text())) {
            docs.forEachRemaining(d -> {
                if (d != null && !d.isEmpty()) {
                    all.add(d);
                }
            });
        }
        return all;
    }
}
