package io.kcscale.connectors.camel;

import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/** Sink records as the worker hands them over: string keys, schemaless JSON values or text. */
final class Records {

    private Records() {}

    static SinkRecord trade(String topic, int partition, long offset, Object price) {
        Map<String, Object> value = price == null ? null : Map.of("symbol", "ZVV", "price", price);
        return new SinkRecord(topic, partition, null, "key-" + offset, null, value, offset);
    }

    /** As StringConverter hands a record over: its value as the text it was produced with. */
    static SinkRecord text(String topic, int partition, long offset, String value) {
        return new SinkRecord(topic, partition, null, "key-" + offset, null, value, offset);
    }

    /** The record as the task holds it once its value has passed the JSON check. */
    static Document document(SinkRecord record) {
        return new Document(record, JsonDocuments.check(record.value()).bytes());
    }

    static SinkRecord trade(String topic, int partition, long offset) {
        return trade(topic, partition, offset, 12.5);
    }
}
