package io.kcscale.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigTemplateTest {

    @TempDir
    Path dir;

    @Test
    void fillsEveryPlaceholderAndKeepsTheRest() throws IOException {
        Path f = write("a=${A}\nurl=http://${HOST}:${PORT}/x?$y=${A}\n");
        assertEquals(
                "a=1\nurl=http://h:9/x?$y=1\n",
                ConfigTemplate.load(f).render(Map.of("A", "1", "HOST", "h", "PORT", "9")));
    }

    @Test
    void valuesWithDollarsAndBackslashesAreInsertedLiterally() throws IOException {
        Path f = write("p=${P}");
        assertEquals("p=C:\\x$1", ConfigTemplate.load(f).render(Map.of("P", "C:\\x$1")));
    }

    @Test
    void aMissingValueIsAnErrorNamingEveryMissingPlaceholder() throws IOException {
        Path f = write("${B} ${A} ${B}");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> ConfigTemplate.load(f).render(Map.of()));
        assertTrue(e.getMessage().endsWith("needs values for [A, B]"), e.getMessage());
    }

    @Test
    void everyShippedConfigRendersWithTheValuesTheLauncherGives() {
        Path configs = Path.of(System.getProperty("kcscale.home", "../..")).resolve("configs");
        Map<String, String> values = Map.ofEntries(
                Map.entry("KAFKA_HOST", "127.0.0.1"),
                Map.entry("KAFKA_PORT", "1"),
                Map.entry("CONTROLLER_PORT", "2"),
                Map.entry("KAFKA_LOG_DIR", "/tmp/k"),
                Map.entry("KAFKA_BOOTSTRAP", "127.0.0.1:1"),
                Map.entry("CONNECT_HOST", "127.0.0.1"),
                Map.entry("CONNECT_PORT", "3"),
                Map.entry("PLUGIN_PATH", "/p"),
                Map.entry(ComponentStarter.COMMIT_INTERVAL_MS, "60000"),
                Map.entry("TOPIC", "t"),
                Map.entry("INDEX", "i"),
                Map.entry("KEY_FIELD", "price"),
                Map.entry("RATE_PER_TASK", "1"),
                Map.entry("ITERATIONS", "-1"),
                Map.entry("SINK_TASKS", "1"),
                Map.entry("ES_HOST_PORT", "127.0.0.1:4"),
                Map.entry("SHARDS", "1"),
                Map.entry("REPLICAS", "0"));
        for (String f : new String[] {
            "kafka/broker.properties",
            "connect/worker.properties",
            "connectors/stocks-datagen.json",
            "connectors/stocks-es-sink.json",
            "elasticsearch/stocks-index.json"
        }) {
            String rendered = ConfigTemplate.load(configs.resolve(f)).render(values);
            assertTrue(!rendered.contains("${"), f + " still has a placeholder");
        }
    }

    private Path write(String text) throws IOException {
        Path f = dir.resolve("t.properties");
        Files.writeString(f, text);
        return f;
    }
}
