package io.kcscale.connectors.datagen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * A source connector producing random records, configured with kafka-connect-datagen's keys plus
 * pacing and key-shaping keys of our own (see {@link DatagenConfig}). Each record's value is a struct
 * of the schema's fields plus {@code produced_at_ms}, its key a string, and it carries the header
 * {@code kcscale.produced.ms}; both times are epoch milliseconds. Each task generates independently;
 * the connector only hands out task numbers.
 */
public class DatagenConnector extends SourceConnector {

    private Map<String, String> props;

    @Override
    public String version() {
        return Version.current();
    }

    @Override
    public void start(Map<String, String> props) {
        new DatagenConfig(props);
        this.props = new HashMap<>(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return DatagenTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>(maxTasks);
        for (int task = 0; task < maxTasks; task++) {
            Map<String, String> config = new HashMap<>(props);
            config.put(DatagenTask.TASK_ID, Integer.toString(task));
            configs.add(config);
        }
        return configs;
    }

    @Override
    public void stop() {
        // nothing to release: the tasks hold all the state
    }

    @Override
    public ConfigDef config() {
        return DatagenConfig.CONFIG_DEF;
    }

    /**
     * Adds the rules that span keys (schema choice, key field, pacing combinations) to the per-key
     * checks, so the REST API rejects such a config when it is created rather than when a task starts.
     */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config result = super.validate(connectorConfigs);
        boolean perKeyValid = result.configValues().stream()
                .allMatch(value -> value.errorMessages().isEmpty());
        if (perKeyValid) {
            try {
                new DatagenConfig(connectorConfigs);
            } catch (InvalidConfigException e) {
                result.configValues().stream()
                        .filter(value -> value.name().equals(e.key()))
                        .forEach(value -> value.addErrorMessage(e.getMessage()));
            }
        }
        return result;
    }

    /** Offsets only count records, so any non-negative count for a task number is a valid reset. */
    @Override
    public boolean alterOffsets(Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
        offsets.forEach((partition, offset) -> {
            if (!(partition.get(RecordFactory.PARTITION_TASK) instanceof Number)) {
                throw new ConnectException("source partition must be {\"" + RecordFactory.PARTITION_TASK
                        + "\": <task number>}, not " + partition);
            }
            Object count = offset == null ? 0L : offset.get(RecordFactory.OFFSET_PRODUCED);
            if (!(count instanceof Number) || ((Number) count).longValue() < 0) {
                throw new ConnectException("source offset must be {\"" + RecordFactory.OFFSET_PRODUCED
                        + "\": <records produced, >= 0>}, not " + offset);
            }
        });
        return true;
    }
}
