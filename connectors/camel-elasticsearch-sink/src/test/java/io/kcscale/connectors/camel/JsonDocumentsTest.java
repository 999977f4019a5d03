package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class JsonDocumentsTest {

    @Test
    void jsonObjectsAreDocumentsAsTextBytesOrMaps() {
        String trade = "{\"symbol\":\"ZVV\",\"price\":12.5,\"legs\":[{\"qty\":1}],\"note\":null}";
        assertEquals(Optional.empty(), JsonDocuments.problem(trade));
        assertEquals(Optional.empty(), JsonDocuments.problem(" \n" + trade + "\n"));
        assertEquals(Optional.empty(), JsonDocuments.problem(trade.getBytes(StandardCharsets.UTF_8)));
        assertEquals(Optional.empty(), JsonDocuments.problem(Map.of("price", 12.5)));
    }

    @Test
    void malformedTextIsNamedWithWhereItBreaks() {
        String problem = JsonDocuments.problem("not json{").orElseThrow();
        assertEquals("its value is not JSON: Unrecognized token 'not': was expecting (JSON String, Number, Array, Object "
                + "or token 'null', 'true' or 'false') (at character 3)", problem);
        assertEquals("its value is not JSON: Unexpected end-of-input: expected close marker for Object (start marker at "
                + "[Source: UNKNOWN; line: 1, column: 1]) (at character 10)", JsonDocuments.problem("{\"price\":1").orElseThrow());
    }

    /** ByteArrayConverter hands the record's bytes over as they are: bytes that are not UTF-8 are caught here, not indexed altered. */
    @Test
    void bytesThatAreNotUtf8AreNotJson() {
        byte[] brokenMiddleByte = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertEquals(Optional.of("its value is not JSON: Invalid UTF-8 middle byte 0x28 (at byte 8)"),
                JsonDocuments.problem(brokenMiddleByte));
        byte[] noSuchByte = {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, '"', '}'};
        assertEquals(Optional.of("its value is not JSON: Invalid UTF-8 start byte 0xff (at byte 7)"), JsonDocuments.problem(noSuchByte));
    }

    @Test
    void onlyOneWholeObjectIsADocument() {
        assertEquals(Optional.of("its value is JSON but not an object: it starts with ["), JsonDocuments.problem("[1,2]"));
        assertEquals(Optional.of("its value is JSON but not an object: it starts with 42"), JsonDocuments.problem("42"));
        assertEquals(Optional.of("its value is empty, not a JSON object"), JsonDocuments.problem(""));
        assertEquals(Optional.of("its value has more after its JSON object, at character 8"), JsonDocuments.problem("{\"a\":1} {}"));
    }

    @Test
    void otherValuesAreNotJson() {
        assertEquals(Optional.of("its value is null (a tombstone), not JSON: use "
                + "value.converter=org.apache.kafka.connect.storage.StringConverter for JSON records"), JsonDocuments.problem(null));
        assertEquals("its value is a java.lang.Integer, not JSON: use value.converter=org.apache.kafka.connect.storage.StringConverter "
                + "for JSON records", JsonDocuments.problem(7).orElseThrow());
    }
}
