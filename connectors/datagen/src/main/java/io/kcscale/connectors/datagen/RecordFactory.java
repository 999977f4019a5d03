package io.kcscale.connectors.datagen;

import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/** Assembles one task's source records: topic, key, value, production time and source offset. */
final class RecordFactory {

    /** Header carrying the production time in epoch milliseconds. */
    static final String PRODUCED_HEADER = "kcscale.produced.ms";
    /** Source partition key: the task number. */
    static final String PARTITION_TASK = "task";
    /** Source offset key: how many records this task has produced, this one included. */
    static final String OFFSET_PRODUCED = "produced";

    private final String topic;
    private final Map<String, Integer> sourcePartition;
    private final KeyChooser keys;
    private final ValueFactory values;

    RecordFactory(String topic, int taskId, KeyChooser keys, ValueFactory values) {
        this.topic = topic;
        this.sourcePartition = sourcePartition(taskId);
        this.keys = keys;
        this.values = values;
    }

    static Map<String, Integer> sourcePartition(int taskId) {
        return Map.of(PARTITION_TASK, taskId);
    }

    /** The record that is this task's {@code produced}-th, made at {@code nowMs}. */
    SourceRecord create(GenericRecord generated, long produced, long nowMs) {
        String key = keys.key(generated);
        ConnectHeaders headers = new ConnectHeaders();
        headers.addLong(PRODUCED_HEADER, nowMs);
        return new SourceRecord(
                sourcePartition,
                Map.of(OFFSET_PRODUCED, produced),
                topic,
                null,
                key == null ? Schema.OPTIONAL_STRING_SCHEMA : Schema.STRING_SCHEMA,
                key,
                values.schema(),
                values.value(generated, nowMs),
                nowMs,
                headers);
    }
}
