package io.kcscale.connectors.datagen;

import static io.kcscale.connectors.datagen.TaskHarness.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceConnector;
import org.junit.jupiter.api.Test;

class DatagenConnectorTest {

    private final Map<String, String> config = props("kafka.topic", "trades", "quickstart", "stock_trades");

    @Test
    void eachTaskGetsItsNumberAndTheConnectorConfig() {
        DatagenConnector connector = new DatagenConnector();
        connector.start(config);

        List<Map<String, String>> tasks = connector.taskConfigs(3);

        assertEquals(
                List.of("0", "1", "2"),
                tasks.stream().map(task -> task.get("task.id")).collect(Collectors.toList()));
        assertTrue(tasks.stream().allMatch(task -> "trades".equals(task.get("kafka.topic"))));
        assertEquals(DatagenTask.class, connector.taskClass());
    }

    @Test
    void startRejectsABadConfig() {
        config.put("quickstart", "nope");

        assertThrows(ConfigException.class, () -> new DatagenConnector().start(config));
    }

    @Test
    void theServiceLoaderManifestNamesTheConnector() {
        List<Class<?>> found = ServiceLoader.load(SourceConnector.class).stream()
                .map(ServiceLoader.Provider::type)
                .collect(Collectors.toList());

        assertEquals(List.of(DatagenConnector.class), found);
    }

    @Test
    void offsetsMayBeResetToAnyNonNegativeCountOfATask() {
        DatagenConnector connector = new DatagenConnector();

        assertTrue(connector.alterOffsets(config, Map.of(Map.of("task", 0), Map.of("produced", 10L))));
        assertThrows(
                ConnectException.class,
                () -> connector.alterOffsets(config, Map.of(Map.of("task", 0), Map.of("produced", -1L))));
        assertThrows(
                ConnectException.class,
                () -> connector.alterOffsets(config, Map.of(Map.of("tasks", 0), Map.of("produced", 1L))));
    }
}
