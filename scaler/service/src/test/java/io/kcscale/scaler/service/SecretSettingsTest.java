package io.kcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretSettingsTest {

    @Test
    void theSettingsPrintNoSecret() {
        Map<String, String> values = pipeline();
        values.put("connect.username", "connector-admin");
        values.put("connect.password", "connect-pw-1");
        values.put("elasticsearch.api.key", "es-api-key-2");
        values.put("tls.truststore.password", "truststore-pw-3");
        values.put("token", "scaler-token-4");
        values.put("kafka.sasl.jaas.config", "PlainLoginModule required username=u password=\"kafka-pw-5\";");
        ScalerSettings settings = ScalerSettings.fromValues(values);
        String printed = settings.toString();
        String basic =
                Base64.getEncoder().encodeToString("connector-admin:connect-pw-1".getBytes(StandardCharsets.UTF_8));
        for (String secret :
                new String[] {"connect-pw-1", basic, "es-api-key-2", "truststore-pw-3", "scaler-token-4", "kafka-pw-5"
                }) {
            assertFalse(printed.contains(secret), secret + " in " + printed);
        }
        assertTrue(printed.contains("token=(set)") && printed.contains("kafkaProperties=[sasl.jaas.config]"), printed);
        assertTrue(printed.contains("connectUrl=http://127.0.0.1:8083"), printed);
    }

    @Test
    void everySecretCanComeFromAFile(@TempDir Path dir) throws IOException {
        Map<String, String> values = pipeline();
        values.put("connect.username", "u");
        for (Setting secret : Setting.secrets()) {
            Path file = dir.resolve(secret.key());
            Files.writeString(file, "from-" + secret.key() + "\n");
            values.put(secret.fileKey(), file.toString());
        }
        ScalerSettings settings = ScalerSettings.fromValues(values);
        assertEquals(Optional.of("from-token"), settings.token());
        assertEquals("from-tls.truststore.password", settings.truststorePassword());
        assertEquals(Optional.of("ApiKey from-elasticsearch.api.key"), settings.elasticsearchAuthorization());
        assertEquals(ScalerSettings.authorization("u", "from-connect.password", null), settings.connectAuthorization());
        values.remove("elasticsearch.api.key.file");
        values.put("elasticsearch.username", "e");
        assertEquals(
                ScalerSettings.authorization("e", "from-elasticsearch.password", null),
                ScalerSettings.fromValues(values).elasticsearchAuthorization());
    }

    @Test
    void theKeyItselfWinsOverItsFile(@TempDir Path dir) throws IOException {
        Map<String, String> values = pipeline();
        values.put("token", "given");
        values.put("token.file", Files.writeString(dir.resolve("t"), "in-file").toString());
        assertEquals(Optional.of("given"), ScalerSettings.fromValues(values).token());
    }

    @Test
    void anUnreadableOrEmptySecretFileIsSaid(@TempDir Path dir) throws IOException {
        Map<String, String> values = pipeline();
        values.put("token.file", dir.resolve("missing").toString());
        IllegalArgumentException missing =
                assertThrows(IllegalArgumentException.class, () -> ScalerSettings.fromValues(values));
        assertTrue(
                missing.getMessage().startsWith("cannot read token.file " + dir.resolve("missing")),
                missing.getMessage());
        values.put("token.file", Files.writeString(dir.resolve("empty"), "\n").toString());
        IllegalArgumentException empty =
                assertThrows(IllegalArgumentException.class, () -> ScalerSettings.fromValues(values));
        assertEquals("token.file " + dir.resolve("empty") + " is empty", empty.getMessage());
    }

    @Test
    void aSettingsFileMayNameSecretFiles(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(
                dir.resolve("scaler.properties"),
                "token.file=/run/secrets/token\n" + "allowed.origins=https://ops.example.com\nallowed.hosts=scaler\n");
        assertEquals(
                Map.of(
                        "token.file",
                        "/run/secrets/token",
                        "allowed.origins",
                        "https://ops.example.com",
                        "allowed.hosts",
                        "scaler"),
                ScalerSettings.readFile(file));
    }

    private static Map<String, String> pipeline() {
        return new HashMap<>(Map.of(
                "connect.url",
                "http://127.0.0.1:8083",
                "kafka.bootstrap.servers",
                "127.0.0.1:9092",
                "elasticsearch.url",
                "http://127.0.0.1:9200"));
    }
}
