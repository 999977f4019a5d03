package io.kcscale.local;

import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchReadingsClient;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.SinkClusterReadings;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Reads {@link StatusLineCounters} from a running stack (Kafka offsets, Elasticsearch stats, Connect
 * status) through the scaler's client adapters, with short timeouts and no retries: a slow system
 * shows as "?" on one line rather than delay the next.
 */
public final class StatusLineReader implements AutoCloseable {

    private final KafkaReadingsClient kafka;
    private final ElasticsearchConnection elasticsearch;
    private final ConnectRestClient connect;

    public StatusLineReader(StackEndpoints endpoints) {
        this.kafka = new KafkaReadingsClient(endpoints.kafkaBootstrap(), Map.of(), Duration.ofSeconds(2));
        this.elasticsearch = new ElasticsearchConnection(endpoints.elasticsearchUrl(), 2000);
        this.connect = new ConnectRestClient(
                endpoints.connectUrl(), Duration.ofSeconds(2), new Backoff(1, Duration.ZERO, Duration.ZERO));
    }

    public StatusLineCounters read() {
        OptionalLong produced = OptionalLong.empty();
        OptionalLong lag = OptionalLong.empty();
        try {
            Offsets offsets = Offsets.read(kafka, "connect-" + StackOptions.SINK_CONNECTOR, StackOptions.TOPIC);
            produced = OptionalLong.of(offsets.appended());
            lag = OptionalLong.of(offsets.lag());
        } catch (RuntimeException unavailable) {
            // shown as "?" in the status line
        }
        OptionalLong indexed = OptionalLong.empty();
        OptionalLong documents = OptionalLong.empty();
        try {
            SinkClusterReadings.IndexStats stats =
                    new ElasticsearchReadingsClient(elasticsearch).indexStats(StackOptions.INDEX);
            indexed = OptionalLong.of(stats.indexTotal());
            documents = OptionalLong.of(stats.docsCount());
        } catch (RuntimeException unavailable) {
            // shown as "?" in the status line
        }
        int running = -1;
        int tasks = 0;
        try {
            ConnectorStatus status = connect.connectorStatus(StackOptions.SINK_CONNECTOR);
            running = (int) status.tasksInState("RUNNING");
            tasks = status.tasks().size();
        } catch (RuntimeException unavailable) {
            // shown as "?" in the status line
        }
        return new StatusLineCounters(
                System.nanoTime(), LocalTime.now(), produced, indexed, documents, lag, running, tasks);
    }

    @Override
    public void close() throws IOException {
        kafka.close();
        elasticsearch.close();
    }
}
