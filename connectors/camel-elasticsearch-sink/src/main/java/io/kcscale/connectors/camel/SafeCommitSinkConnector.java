package io.kcscale.connectors.camel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.camel.kafkaconnector.CamelSinkConnector;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The Camel sink connector in bulk mode, with {@link SafeCommitSinkTask}s: offsets are committed
 * only for records Elasticsearch has indexed (or that went to the dead-letter topic). Configured like
 * {@link CamelSinkConnector}, plus what {@link BulkModeConfig} asks for.
 */
public class SafeCommitSinkConnector extends CamelSinkConnector {

    @Override
    public void start(Map<String, String> config) {
        Map<String, String> problems = BulkModeConfig.problems(config);
        if (!problems.isEmpty()) {
            throw new ConnectException("invalid bulk-mode configuration: " + problems.entrySet().stream()
                    .map(p -> p.getKey() + " " + p.getValue()).collect(Collectors.joining("; ")));
        }
        super.start(config);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return SafeCommitSinkTask.class;
    }

    /** Connect's REST API refuses a configuration with these problems when it is created, naming each key. */
    @Override
    public Config validate(Map<String, String> config) {
        Config result = super.validate(config);
        BulkModeConfig.problems(config).forEach((key, problem) -> {
            ConfigValue value = result.configValues().stream().filter(v -> v.name().equals(key)).findFirst()
                    .orElseGet(() -> {
                        ConfigValue added = new ConfigValue(key, config.get(key), List.of(), new ArrayList<>());
                        result.configValues().add(added);
                        return added;
                    });
            value.addErrorMessage(key + " " + problem);
        });
        return result;
    }
}
