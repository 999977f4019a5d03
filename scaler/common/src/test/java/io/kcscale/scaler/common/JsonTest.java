package io.kcscale.scaler.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The API's bytes are the CLI's text, in UTF-8. */
class JsonTest {

    @Test
    void theBytesAreTheTextInUtf8() {
        Object value = Map.of("connector", "lögs-ßink", "partitions", List.of(0, 1, 2), "note", "a \"quoted\" line\n");
        byte[] bytes = Json.bytes(value);
        assertArrayEquals(Json.write(value).getBytes(StandardCharsets.UTF_8), bytes);
        assertTrue(new String(bytes, StandardCharsets.UTF_8).endsWith("}\n"));
    }
}
