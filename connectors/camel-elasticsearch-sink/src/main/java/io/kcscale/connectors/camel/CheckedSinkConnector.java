package io.kcscale.connectors.camel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.camel.kafkaconnector.CamelSinkConnector;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The Camel sink connector with our own checks of its configuration: Connect's REST API refuses a
 * configuration with problems when it is created or updated, naming each key, and a connector started
 * with one anyway (say, from a config topic written before) fails naming them all.
 */
abstract class CheckedSinkConnector extends CamelSinkConnector {

    private final String mode;

    /** {@code mode}: how error messages name the kind of configuration, e.g. {@code bulk-mode}. */
    CheckedSinkConnector(String mode) {
        this.mode = mode;
    }

    /** Each key of this mode whose value is missing or wrong, with what to set it to; empty when all is well. */
    abstract Map<String, String> problems(Map<String, String> config);

    /** This mode's problems and those of the settings both modes share. */
    private Map<String, String> allProblems(Map<String, String> config) {
        Map<String, String> problems = new LinkedHashMap<>(problems(config));
        problems.putAll(MalformedRecords.problems(config));
        problems.putAll(RetrySettings.problems(config));
        return problems;
    }

    @Override
    public void start(Map<String, String> config) {
        Map<String, String> problems = allProblems(config);
        if (!problems.isEmpty()) {
            throw new ConnectException("invalid " + mode + " configuration: "
                    + problems.entrySet().stream()
                            .map(p -> p.getKey() + " " + p.getValue())
                            .collect(Collectors.joining("; ")));
        }
        super.start(config);
    }

    @Override
    public ConfigDef config() {
        return RetrySettings.define(MalformedRecords.define(new ConfigDef(super.config())));
    }

    @Override
    public Config validate(Map<String, String> config) {
        Config result = super.validate(config);
        allProblems(config).forEach((key, problem) -> {
            ConfigValue value = result.configValues().stream()
                    .filter(v -> v.name().equals(key))
                    .findFirst()
                    .orElseGet(() -> {
                        ConfigValue added = new ConfigValue(key, config.get(key), List.of(), new ArrayList<>());
                        result.configValues().add(added);
                        return added;
                    });
            // a value ConfigDef already refused (not one of the choices, say) is said once, by ConfigDef
            if (value.errorMessages().isEmpty()) {
                value.addErrorMessage(key + " " + problem);
            }
        });
        return result;
    }
}
