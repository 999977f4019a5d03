package io.kcscale.connectors.camel;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.kafkaconnector.CamelSinkConnector;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;

/**
 * The Camel sink connector in bulk mode, with {@link SafeCommitSinkTask}s: offsets are committed
 * only for records Elasticsearch has indexed (or that went to the dead-letter topic). Configured like
 * {@link CamelSinkConnector}, plus what {@link BulkModeConfig} asks for, {@value MalformedRecords#CONFIG},
 * {@link RetrySettings} and {@link InFlightSettings}.
 */
public class SafeCommitSinkConnector extends CheckedSinkConnector {

    public SafeCommitSinkConnector() {
        super("bulk-mode");
    }

    @Override
    public Class<? extends Task> taskClass() {
        return SafeCommitSinkTask.class;
    }

    @Override
    public ConfigDef config() {
        return InFlightSettings.define(super.config());
    }

    @Override
    Map<String, String> problems(Map<String, String> config) {
        Map<String, String> problems = new LinkedHashMap<>(BulkModeConfig.problems(config));
        InFlightSettings.problems(config)
                .forEach((key, problem) -> problems.merge(key, problem, (first, second) -> first + "; " + second));
        return problems;
    }
}
