package io.kcscale.connectors.datagen;

import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns generated Avro records into record values: a Connect struct with the schema's fields followed
 * by {@value #PRODUCED_AT_FIELD}, so consumers can measure end-to-end latency from the value alone.
 */
final class ValueFactory {

    static final String PRODUCED_AT_FIELD = "produced_at_ms";

    private final Schema schema;

    ValueFactory(org.apache.avro.Schema avroSchema) {
        // built once: Connect compares schemas on every record, and identical instances compare fastest
        schema = AvroToConnect.structBuilder(avroSchema)
                .field(PRODUCED_AT_FIELD, Schema.INT64_SCHEMA)
                .build();
    }

    Schema schema() {
        return schema;
    }

    Struct value(GenericRecord record, long producedAtMs) {
        Struct struct = new Struct(schema);
        AvroToConnect.copyFields(record, struct);
        return struct.put(PRODUCED_AT_FIELD, producedAtMs);
    }
}
