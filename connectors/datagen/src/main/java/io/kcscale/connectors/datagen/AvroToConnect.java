package io.kcscale.connectors.datagen;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Converts Avro schemas and the generator's values into Connect schemas and values: records become
 * structs (nested too), arrays lists, maps maps with string keys, enums strings, fixed and bytes
 * byte arrays, and a union of null with one type an optional schema. Logical types are carried as
 * their underlying type, which is how JsonConverter would write them anyway.
 */
final class AvroToConnect {

    private AvroToConnect() {}

    /**
     * A struct builder holding the fields of an Avro record schema, in Avro order, so that a caller
     * may append fields of its own before building.
     *
     * @throws IllegalArgumentException if the schema is not a record or uses a type Connect lacks
     */
    static SchemaBuilder structBuilder(org.apache.avro.Schema record) {
        if (record.getType() != org.apache.avro.Schema.Type.RECORD) {
            throw new IllegalArgumentException("the top-level type must be a record, not " + record.getType());
        }
        SchemaBuilder struct = SchemaBuilder.struct().name(record.getFullName());
        for (org.apache.avro.Schema.Field field : record.getFields()) {
            struct.field(field.name(), builder(field.schema(), field.name()).build());
        }
        return struct;
    }

    /** Puts every field of {@code record} into {@code target}, whose schema starts with the record's fields. */
    static void copyFields(GenericRecord record, Struct target) {
        List<Field> fields = target.schema().fields();
        for (org.apache.avro.Schema.Field field : record.getSchema().getFields()) {
            Field connectField = fields.get(field.pos());
            target.put(connectField, value(record.get(field.pos()), connectField.schema()));
        }
    }

    private static SchemaBuilder builder(org.apache.avro.Schema avro, String where) {
        switch (avro.getType()) {
            case RECORD:
                return structBuilder(avro);
            case ARRAY:
                return SchemaBuilder.array(
                        builder(avro.getElementType(), where + "[]").build());
            case MAP:
                return SchemaBuilder.map(
                        Schema.STRING_SCHEMA,
                        builder(avro.getValueType(), where + "{}").build());
            case UNION:
                return builder(nonNullBranch(avro, where), where).optional();
            case STRING:
            case ENUM:
                return SchemaBuilder.string();
            case BYTES:
            case FIXED:
                return SchemaBuilder.bytes();
            case INT:
                return SchemaBuilder.int32();
            case LONG:
                return SchemaBuilder.int64();
            case FLOAT:
                return SchemaBuilder.float32();
            case DOUBLE:
                return SchemaBuilder.float64();
            case BOOLEAN:
                return SchemaBuilder.bool();
            default:
                throw new IllegalArgumentException(
                        "field " + where + " has type " + avro.getType() + ", which has no Connect equivalent");
        }
    }

    /** Connect has no general unions; only null plus one other type maps, to an optional schema. */
    private static org.apache.avro.Schema nonNullBranch(org.apache.avro.Schema union, String where) {
        List<org.apache.avro.Schema> branches = union.getTypes();
        long nulls = branches.stream()
                .filter(b -> b.getType() == org.apache.avro.Schema.Type.NULL)
                .count();
        if (branches.size() != 2 || nulls != 1) {
            throw new IllegalArgumentException("field " + where + " is the union " + union
                    + "; only a union of null and one other type is supported");
        }
        return branches.get(0).getType() == org.apache.avro.Schema.Type.NULL ? branches.get(1) : branches.get(0);
    }

    private static Object value(Object avro, Schema schema) {
        if (avro == null) {
            return null;
        }
        switch (schema.type()) {
            case STRUCT:
                Struct struct = new Struct(schema);
                copyFields((GenericRecord) avro, struct);
                return struct;
            case ARRAY:
                List<Object> list = new ArrayList<>();
                for (Object element : (Collection<?>) avro) {
                    list.add(value(element, schema.valueSchema()));
                }
                return list;
            case MAP:
                Map<String, Object> map = new LinkedHashMap<>();
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) avro).entrySet()) {
                    map.put(entry.getKey().toString(), value(entry.getValue(), schema.valueSchema()));
                }
                return map;
            case STRING:
                // Avro hands out Utf8, String or enum symbols; Connect wants String
                return avro.toString();
            case BYTES:
                return avro instanceof GenericFixed ? ((GenericFixed) avro).bytes() : avro;
            default:
                return avro;
        }
    }
}
