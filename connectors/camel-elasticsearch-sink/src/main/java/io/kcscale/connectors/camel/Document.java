package io.kcscale.connectors.camel;

import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A record whose value passed {@link JsonDocuments}' check, with the document's UTF-8 bytes: what is
 * indexed, byte for byte. The record itself is kept for the dead-letter topic, which gets it as it came.
 */
record Document(SinkRecord record, byte[] bytes) {

    RecordCoordinates at() {
        return RecordCoordinates.of(record);
    }

    int size() {
        return bytes.length;
    }
}
