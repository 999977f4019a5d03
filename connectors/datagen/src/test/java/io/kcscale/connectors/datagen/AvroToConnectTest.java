package io.kcscale.connectors.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.confluent.avro.random.generator.Generator;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema.Parser;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class AvroToConnectTest {

    private static final org.apache.avro.Schema ORDER = new Parser()
            .parse("{\"type\":\"record\",\"name\":\"Order\","
                    + "\"namespace\":\"shop\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"long\"},"
                    + "{\"name\":\"note\",\"type\":[\"null\",\"string\"]},"
                    + "{\"name\":\"status\",\"type\":{\"type\":\"enum\",\"name\":\"Status\",\"symbols\":[\"NEW\",\"PAID\"]}},"
                    + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
                    + "{\"name\":\"counts\",\"type\":{\"type\":\"map\",\"values\":\"int\"}},"
                    + "{\"name\":\"blob\",\"type\":\"bytes\"},"
                    + "{\"name\":\"ratio\",\"type\":[\"double\",\"null\"]},"
                    + "{\"name\":\"ship\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Address\",\"fields\":["
                    + "{\"name\":\"city\",\"type\":\"string\"},{\"name\":\"zip\",\"type\":\"int\"}]}]},"
                    + "{\"name\":\"lines\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"Line\","
                    + "\"fields\":[{\"name\":\"sku\",\"type\":\"string\"},{\"name\":\"qty\",\"type\":\"float\"}]}}},"
                    + "{\"name\":\"paid\",\"type\":\"boolean\"}]}");

    private static final Schema LINE = SchemaBuilder.struct()
            .name("shop.Line")
            .field("sku", Schema.STRING_SCHEMA)
            .field("qty", Schema.FLOAT32_SCHEMA)
            .build();

    @Test
    void schemasMapTypeByTypeWithNullableUnionsOptional() {
        Schema schema = AvroToConnect.structBuilder(ORDER).build();

        Schema expected = SchemaBuilder.struct()
                .name("shop.Order")
                .field("id", Schema.INT64_SCHEMA)
                .field("note", Schema.OPTIONAL_STRING_SCHEMA)
                .field("status", Schema.STRING_SCHEMA)
                .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
                .field(
                        "counts",
                        SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA)
                                .build())
                .field("blob", Schema.BYTES_SCHEMA)
                .field("ratio", Schema.OPTIONAL_FLOAT64_SCHEMA)
                .field(
                        "ship",
                        SchemaBuilder.struct()
                                .name("shop.Address")
                                .field("city", Schema.STRING_SCHEMA)
                                .field("zip", Schema.INT32_SCHEMA)
                                .optional()
                                .build())
                .field("lines", SchemaBuilder.array(LINE).build())
                .field("paid", Schema.BOOLEAN_SCHEMA)
                .build();
        assertEquals(expected, schema);
    }

    @Test
    void valuesConvertIncludingNestedRecordsAndNulls() {
        GenericRecord address = new GenericData.Record(
                ORDER.getField("ship").schema().getTypes().get(1));
        address.put("city", new Utf8("Oslo"));
        address.put("zip", 150);
        GenericRecord line =
                new GenericData.Record(ORDER.getField("lines").schema().getElementType());
        line.put("sku", "A-1");
        line.put("qty", 2.5f);
        GenericRecord order = new GenericData.Record(ORDER);
        order.put("id", 7L);
        order.put("note", null);
        order.put("status", new GenericData.EnumSymbol(ORDER.getField("status").schema(), "PAID"));
        order.put("tags", List.of(new Utf8("gift")));
        order.put("counts", Map.of(new Utf8("a"), 1));
        order.put("blob", ByteBuffer.wrap(new byte[] {1, 2}));
        order.put("ratio", 0.5);
        order.put("ship", address);
        order.put("lines", List.of(line));
        order.put("paid", true);
        Schema schema = AvroToConnect.structBuilder(ORDER).build();

        Struct struct = new Struct(schema);
        AvroToConnect.copyFields(order, struct);

        struct.validate();
        assertEquals(7L, struct.getInt64("id"));
        assertNull(struct.get("note"));
        assertEquals("PAID", struct.getString("status"));
        assertEquals(List.of("gift"), struct.getArray("tags"));
        assertEquals(Map.of("a", 1), struct.getMap("counts"));
        assertArrayEquals(new byte[] {1, 2}, ((ByteBuffer) struct.get("blob")).array());
        assertEquals(0.5, struct.getFloat64("ratio"));
        assertEquals("Oslo", struct.getStruct("ship").getString("city"));
        assertEquals(150, struct.getStruct("ship").getInt32("zip"));
        assertEquals(
                new Struct(LINE).put("sku", "A-1").put("qty", 2.5f),
                struct.getArray("lines").get(0));
        assertEquals(true, struct.getBoolean("paid"));
    }

    @Test
    void unionsOfTwoRealTypesAreRejectedNamingTheField() {
        org.apache.avro.Schema either = new Parser()
                .parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                        + "{\"name\":\"either\",\"type\":[\"null\",\"int\",\"string\"]}]}");

        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> AvroToConnect.structBuilder(either));
        assertTrue(error.getMessage().contains("field either"), error.getMessage());
    }

    @Test
    void generatedQuickstartRecordsConvertToValidStructs() {
        org.apache.avro.Schema trades =
                new Parser().parse(Quickstarts.schemaText("stock_trades").orElseThrow());
        ValueFactory values = new ValueFactory(trades);
        Generator generator =
                new Generator.Builder().schema(trades).random(new Random(1)).build();

        for (int i = 0; i < 100; i++) {
            Struct struct = values.value((GenericRecord) generator.generate(), 42L);
            struct.validate();
            assertEquals(42L, struct.getInt64(ValueFactory.PRODUCED_AT_FIELD));
        }
    }
}
