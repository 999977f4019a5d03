package io.kcscale.scaler.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.checks.keys.KeyTally;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonFieldsTest {

    private static KeySample read(String... values) {
        KeyTally tally = new KeyTally();
        for (String v : values) {
            tally.record(null);
            JsonFields.read(v == null ? null : v.getBytes(StandardCharsets.UTF_8), tally);
        }
        return tally.sample("t", 1, 1, 0, "end", List.of(0));
    }

    @Test
    void topLevelScalarsCountNestedValuesAndNullsDoNot() {
        KeySample s = read(
                "{\"side\":\"BUY\",\"price\":12,\"ok\":true,\"at\":1.5,\"nested\":{\"x\":1},\"list\":[1,2],\"none\":null}",
                "{\"side\":\"SELL\",\"price\":12}");
        assertEquals(
                List.of("side", "price", "ok", "at"),
                List.copyOf(s.fieldValues().keySet()));
        assertEquals(2, s.fieldValues().get("side").count());
        assertEquals(1, s.fieldValues().get("price").count());
        assertEquals("side", s.firstField());
        assertEquals(2, s.recordsWithFields());
    }

    @Test
    void valuesThatAreNotJsonObjectsGiveNoFields() {
        KeySample s = read(null, "", "plain text", "[1,2]", "\u0000avro");
        assertEquals(Map.of(), s.fieldValues());
        assertEquals(0, s.recordsWithFields());
    }

    @Test
    void aBrokenObjectKeepsTheFieldsBeforeTheBreak() {
        KeySample s = read("{\"side\":\"BUY\",\"price\":");
        assertEquals(List.of("side"), List.copyOf(s.fieldValues().keySet()));
    }
}
