package io.kcscale.connectors.camel;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * What Connect hands a sink task: the reporter it makes when errors.tolerance=all (with a dead-letter
 * topic or not), or none; each poll timeout the task asks for is kept in {@code pollTimeouts}. Without
 * {@code withPluginMetrics} it stands for a worker older than Kafka 4.0, whose context has no such method.
 */
record TaskContext(ErrantRecordReporter reporter, List<Long> pollTimeouts, boolean withPluginMetrics)
        implements SinkTaskContext {

    TaskContext(ErrantRecordReporter reporter, List<Long> pollTimeouts) {
        this(reporter, pollTimeouts, true);
    }

    @Override
    public Map<String, String> configs() {
        return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void timeout(long timeoutMs) {
        pollTimeouts.add(timeoutMs);
    }

    @Override
    public Set<TopicPartition> assignment() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void pause(TopicPartition... partitions) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void resume(TopicPartition... partitions) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void requestCommit() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ErrantRecordReporter errantRecordReporter() {
        return reporter;
    }

    @Override
    public PluginMetrics pluginMetrics() {
        if (!withPluginMetrics) {
            throw new NoSuchMethodError("org.apache.kafka.connect.sink.SinkTaskContext.pluginMetrics()");
        }
        return new PluginMetricsImpl(new Metrics(), Map.of("connector", "test", "task", "0"));
    }
}
