package io.kcscale.connectors.camel;

import java.util.Map;
import org.apache.camel.kafkaconnector.CamelSinkTask;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * A Single Message Transform that adds the record's topic, partition and offset as one header
 * ({@code topic-partition-offset}) prefixed {@code CamelHeader.}: the Camel sink task passes only the record key to the exchange, but maps
 * headers with that prefix onto it, so this is how the coordinates reach {@link BulkIndexAggregation}.
 */
public class CoordinatesHeaders implements Transformation<SinkRecord> {

    @Override
    public SinkRecord apply(SinkRecord record) {
        return withDocumentId(record, RecordCoordinates.HEADER);
    }

    /** A copy of {@code record} whose exchange will carry its {@code topic-partition-offset} as header {@code name}. */
    static SinkRecord withDocumentId(SinkRecord record, String name) {
        SinkRecord copy = record.newRecord(
                record.topic(),
                record.kafkaPartition(),
                record.keySchema(),
                record.key(),
                record.valueSchema(),
                record.value(),
                record.timestamp());
        copy.headers()
                .addString(
                        CamelSinkTask.HEADER_CAMEL_PREFIX + name,
                        RecordCoordinates.of(record).documentId());
        return copy;
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef();
    }

    @Override
    public void configure(Map<String, ?> configs) {
        // nothing to configure
    }

    @Override
    public void close() {
        // holds nothing
    }
}
