package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
        assertEquals(
                "its value is not JSON: Unrecognized token 'not': was expecting (JSON String, Number, Array, Object "
                        + "or token 'null', 'true' or 'false') (at byte 4)",
                problem);
        assertEquals(
                "its value is not JSON: Unexpected end-of-input: expected close marker for Object (start marker at "
                        + "[Source: UNKNOWN; line: 1, column: 1]) (at byte 10)",
                JsonDocuments.problem("{\"price\":1").orElseThrow());
    }

    /** ByteArrayConverter hands the record's bytes over as they are: bytes that are not UTF-8 are caught here, not indexed altered. */
    @Test
    void bytesThatAreNotUtf8AreNotJson() {
        byte[] brokenMiddleByte = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertEquals(
                Optional.of("its value is not UTF-8: byte 0xC3 at byte 6 starts no UTF-8 character"),
                JsonDocuments.problem(brokenMiddleByte));
        byte[] noSuchByte = {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, '"', '}'};
        assertEquals(
                Optional.of("its value is not UTF-8: byte 0xFF at byte 6 starts no UTF-8 character"),
                JsonDocuments.problem(noSuchByte));
    }

    @Test
    void onlyOneWholeObjectIsADocument() {
        assertEquals(
                Optional.of("its value is JSON but not an object: it starts with ["), JsonDocuments.problem("[1,2]"));
        assertEquals(
                Optional.of("its value is JSON but not an object: it starts with 42"), JsonDocuments.problem("42"));
        assertEquals(Optional.of("its value is empty, not a JSON object"), JsonDocuments.problem(""));
        assertEquals(
                Optional.of("its value has more after its JSON object, at byte 8"),
                JsonDocuments.problem("{\"a\":1} {}"));
    }

    @Test
    void otherValuesAreNotJson() {
        assertEquals(
                Optional.of("its value is null (a tombstone), not JSON: use "
                        + "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter for JSON records"),
                JsonDocuments.problem(null));
        assertEquals(
                "its value is a java.lang.Integer, not JSON: use value.converter=org.apache.kafka.connect.converters.ByteArrayConverter "
                        + "for JSON records",
                JsonDocuments.problem(7).orElseThrow());
    }

    /** Jackson detects UTF-16 and UTF-32 by itself; the bulk body's line-break rewrite then cut their characters. */
    @Test
    void onlyUtf8IsJsonHereWhateverAParserCouldDetect() {
        String trade = "{\"symbol\":\"\u010A\"}";
        for (String encoding : new String[] {"UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE"}) {
            byte[] bytes = trade.getBytes(java.nio.charset.Charset.forName(encoding));
            assertEquals(
                    Optional.of("its value holds the control byte 0x00 at byte " + (encoding.endsWith("BE") ? 0 : 1)
                            + ": is it UTF-16 or UTF-32? Only UTF-8 JSON is indexed"),
                    JsonDocuments.problem(bytes),
                    encoding);
        }
        assertEquals(
                Optional.of("its value starts with a UTF-16 or UTF-32 byte order mark: only UTF-8 JSON is indexed"),
                JsonDocuments.problem(trade.getBytes(StandardCharsets.UTF_16)));
        byte[] withBom = ("\uFEFF" + trade).getBytes(StandardCharsets.UTF_8);
        assertEquals(
                Optional.of("its value starts with a byte order mark (EF BB BF), which JSON text must not carry"),
                JsonDocuments.problem(withBom));
    }

    @Test
    void malformedUtf8IsNamedByItsByte() {
        byte[] overlongSlash = {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'};
        byte[] surrogate = {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'};
        byte[] truncated = {'{', '"', 'a', '"', ':', '"', (byte) 0xE2, (byte) 0x82};
        assertEquals(
                "its value is not UTF-8: byte 0xC0 at byte 6 starts no UTF-8 character",
                JsonDocuments.problem(overlongSlash).orElseThrow());
        assertEquals(
                "its value is not UTF-8: byte 0xED at byte 6 starts no UTF-8 character",
                JsonDocuments.problem(surrogate).orElseThrow());
        assertEquals(
                "its value is not UTF-8: byte 0xE2 at byte 6 starts no UTF-8 character",
                JsonDocuments.problem(truncated).orElseThrow());
        assertEquals(
                Optional.of("its value holds the control byte 0x01 at byte 7, which JSON escapes"),
                JsonDocuments.problem(new byte[] {'{', '"', 'a', '"', ':', '"', 'x', 1, '"', '}'}));
        assertEquals(
                Optional.of("its value holds a lone UTF-16 surrogate, which UTF-8 cannot carry"),
                JsonDocuments.problem("{\"a\":\"\uD800\"}"));
    }

    @Test
    void anAcceptedDocumentIsIndexedByteForByte() {
        byte[] bytes = "{\"\u010A\":\"\uD83D\uDE00 \u20AC\",\n \"n\":123456789012345678901234567890}"
                .getBytes(StandardCharsets.UTF_8);
        assertSame(bytes, JsonDocuments.check(bytes).bytes(), "bytes are indexed as they came");
        String text = "{\"\u010A\":\"\u20AC\"}";
        assertArrayEquals(
                text.getBytes(StandardCharsets.UTF_8), JsonDocuments.check(text).bytes());
    }
}
