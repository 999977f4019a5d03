package io.kcscale.tests.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kcscale.scaler.service.ServeCommand;
import io.kcscale.scaler.service.Setting;
import io.kcscale.tests.fixtures.Commands;
import io.kcscale.tests.fixtures.ReleaseArtifact;
import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * kubernetes/ through kubernetes-validate (PyPI; it bundles the API's schemas, so no cluster is
 * needed), strictly; and what the schemas cannot know: the Role grants only what a scale needs, the
 * probes call a route the scaler serves, the token comes from a Secret, and every flag and settings
 * key the manifests give the scaler is one it has.
 */
class KubernetesManifestsTest {

    private static final Path MANIFESTS = RepositoryFiles.home().resolve("kubernetes");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void everyManifestIsValidAgainstTheKubernetesSchemasStrictly() throws IOException {
        List<String> command = new ArrayList<>(List.of("kubernetes-validate", "--strict", "--no-warn"));
        manifestFiles().forEach(f -> command.add(f.toString()));
        String out = Commands.runOk(MANIFESTS, Duration.ofMinutes(2), command);
        assertEquals(
                documents().size(),
                out.lines().filter(l -> l.contains(" passed ")).count(),
                out);
    }

    @Test
    void theValidatorRefusesABrokenDeployment(@TempDir Path dir) throws IOException {
        Path broken = dir.resolve("broken.yaml");
        String text = Files.readString(MANIFESTS.resolve("scaler.yaml"));
        assertTrue(text.contains("  replicas: 2\n"));
        Files.writeString(broken, text.replace("  replicas: 2\n", "  replicas: two\n"));
        Commands.Result r = Commands.run(
                dir, Duration.ofMinutes(2), Map.of(), List.of("kubernetes-validate", "--strict", broken.toString()));
        assertNotEquals(0, r.exit(), r.output());
    }

    @Test
    void theRoleAllowsOnlyGetListWatchAndPatchOnKafkaConnectors() throws IOException {
        JsonNode role = only("Role");
        assertEquals(1, role.path("rules").size(), role.toString());
        JsonNode rule = role.path("rules").get(0);
        assertEquals(List.of("kafka.strimzi.io"), strings(rule.path("apiGroups")));
        assertEquals(List.of("kafkaconnectors"), strings(rule.path("resources")));
        assertEquals(Set.of("get", "list", "watch", "patch"), new HashSet<>(strings(rule.path("verbs"))));
        assertTrue(rule.path("resourceNames").isMissingNode());
        JsonNode binding = only("RoleBinding");
        assertEquals("Role", binding.path("roleRef").path("kind").asText());
        assertEquals(
                only("ServiceAccount").path("metadata").path("name").asText(),
                binding.path("subjects").get(0).path("name").asText());
        assertEquals(
                binding.path("subjects").get(0).path("name").asText(),
                pod().path("serviceAccountName").asText());
    }

    @Test
    void twoReplicasWithoutAVolumeForStateAndABudgetThatKeepsOneThroughADrain() throws IOException {
        JsonNode deployment = only("Deployment");
        assertEquals(2, deployment.path("spec").path("replicas").asInt(), "one leads, one stands by");
        assertTrue(
                documents().stream().noneMatch(d -> d.path("kind").asText().equals("PersistentVolumeClaim")),
                "policies live in a Kafka topic, not on a volume");
        assertTrue(pod().path("volumes").findValues("persistentVolumeClaim").isEmpty());
        JsonNode budget = only("PodDisruptionBudget");
        assertEquals(1, budget.path("spec").path("minAvailable").asInt());
        assertEquals(
                deployment.path("spec").path("selector").path("matchLabels"),
                budget.path("spec").path("selector").path("matchLabels"),
                "the budget covers the Deployment's pods");
    }

    @Test
    void theProbesCallARouteTheScalerServes() throws IOException {
        JsonNode openApi = RepositoryFiles.json(
                RepositoryFiles.home().resolve("scaler/service/src/main/resources/api/openapi.json"));
        JsonNode container = pod().path("containers").get(0);
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            String path = container.path(probe).path("httpGet").path("path").asText();
            assertTrue(
                    openApi.path("paths").path(path).has("get"),
                    probe + " calls " + path + ", which openapi.json does not list");
        }
    }

    @Test
    void theTokenComesFromASecretFileAndEveryFlagAndKeyIsTheScalers() throws IOException {
        JsonNode container = pod().path("containers").get(0);
        CommandLine serve = new CommandLine(ServeCommand.newSpec());
        String tokenFile = null;
        for (String arg : strings(container.path("args"))
                .subList(1, container.path("args").size())) {
            String flag = arg.split("=", 2)[0];
            assertNotNull(serve.getCommandSpec().findOption(flag), flag + " is not a flag of kcscale serve");
            assertFalse(flag.equals("--token"), "a token on the command line shows in ps");
            if (flag.equals("--token-file")) {
                tokenFile = arg.split("=", 2)[1];
            }
        }
        assertNotNull(tokenFile, "serve binds beyond loopback, so it needs --token-file");
        String mount = Path.of(tokenFile).getParent().toString();
        String volume = null;
        for (JsonNode m : container.path("volumeMounts")) {
            if (m.path("mountPath").asText().equals(mount)) {
                volume = m.path("name").asText();
            }
        }
        for (JsonNode v : pod().path("volumes")) {
            if (v.path("name").asText().equals(volume)) {
                assertTrue(v.has("secret"), "the token's volume " + volume + " is not a Secret: " + v);
                return;
            }
        }
        throw new AssertionError("no volume is mounted at " + mount);
    }

    /** The image the release's build-image makes, of this version, from a registry the user names. */
    @Test
    void theImageIsTheReleasesOfThisVersion() throws IOException {
        String image = pod().path("containers").get(0).path("image").asText();
        assertTrue(image.endsWith("/kcscale/scaler:" + ReleaseArtifact.version()), image);
    }

    @Test
    void theSettingsFileHasOnlyKeysTheScalerKnows() throws IOException {
        Properties settings = new Properties();
        settings.load(new StringReader(
                only("ConfigMap").path("data").path("scaler.properties").asText()));
        for (String key : settings.stringPropertyNames()) {
            Optional<Setting> setting = Setting.ofKey(key);
            assertTrue(setting.isPresent() && setting.get() != Setting.INDEX, key + " is not a settings key");
            assertFalse(
                    setting.get().secret() && key.equals(setting.get().key()),
                    key + " is a secret: it belongs in a Secret, not a ConfigMap");
        }
    }

    private static JsonNode pod() throws IOException {
        return only("Deployment").path("spec").path("template").path("spec");
    }

    private static JsonNode only(String kind) throws IOException {
        List<JsonNode> found = documents().stream()
                .filter(d -> d.path("kind").asText().equals(kind))
                .toList();
        assertEquals(1, found.size(), "one " + kind + " in kubernetes/");
        return found.get(0);
    }

    private static List<JsonNode> documents() throws IOException {
        List<JsonNode> all = new ArrayList<>();
        for (Path f : manifestFiles()) {
            try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(f.toFile())) {
                docs.forEachRemaining(d -> {
                    if (d != null && !d.isEmpty()) {
                        all.add(d);
                    }
                });
            }
        }
        return all;
    }

    private static List<Path> manifestFiles() throws IOException {
        try (Stream<Path> files = Files.list(MANIFESTS)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
