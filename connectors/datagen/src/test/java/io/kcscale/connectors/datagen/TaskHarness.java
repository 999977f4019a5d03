package io.kcscale.connectors.datagen;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/** Runs a {@link DatagenTask} outside a worker: configs, committed offsets, and draining its polls. */
final class TaskHarness {

    private TaskHarness() {}

    /** A config map from alternating keys and values. */
    static Map<String, String> props(String... keysAndValues) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    /** Starts a task with {@code committed} (null for none) as the offset of every source partition. */
    static DatagenTask start(PacerClock clock, Map<String, String> props, Map<String, Object> committed) {
        DatagenTask task = new DatagenTask(clock);
        task.initialize(new FixedOffsetContext(props, committed));
        task.start(props);
        return task;
    }

    /** Starts a task on a fake clock, so waits take no real time. */
    static DatagenTask start(Map<String, String> props, Map<String, Object> committed) {
        return start(new FakeClock(), props, committed);
    }

    static DatagenTask start(Map<String, String> props) {
        return start(props, null);
    }

    /** Polls until {@code count} records came out, or a poll returned nothing. */
    static List<SourceRecord> poll(DatagenTask task, int count) throws InterruptedException {
        List<SourceRecord> records = new ArrayList<>();
        while (records.size() < count) {
            List<SourceRecord> batch = task.poll();
            if (batch == null) {
                break;
            }
            records.addAll(batch);
        }
        return records;
    }

    private static final class FixedOffsetContext implements SourceTaskContext {
        private final Map<String, String> configs;
        private final Map<String, Object> committed;

        FixedOffsetContext(Map<String, String> configs, Map<String, Object> committed) {
            this.configs = configs;
            this.committed = committed;
        }

        @Override
        public Map<String, String> configs() {
            return configs;
        }

        @Override
        public OffsetStorageReader offsetStorageReader() {
            return new OffsetStorageReader() {
                @Override
                public <T> Map<String, Object> offset(Map<String, T> partition) {
                    return committed;
                }

                @Override
                public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                    throw new UnsupportedOperationException("the task reads one partition");
                }
            };
        }

        @Override
        public PluginMetrics pluginMetrics() {
            throw new UnsupportedOperationException("the task records no metrics");
        }
    }
}
