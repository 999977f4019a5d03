package io.kcscale.scaler.checks.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTallyTest {

    @Test
    void countsRecordsNullKeysDistinctKeysAndFieldValues() {
        KeyTally tally = new KeyTally();
        for (String side : List.of("BUY", "SELL", "BUY")) {
            tally.record(side.getBytes(StandardCharsets.UTF_8));
            tally.field("side", side);
            tally.field("price", String.valueOf(side.length()));
        }
        tally.record(null);
        KeySample s = tally.sample("t", 20, 2, 1500, "end", List.of(3, 13));
        assertEquals(4, s.records());
        assertEquals(1, s.nullKeys());
        assertEquals(2, s.keys().count());
        assertEquals(2, s.fieldValues().get("side").count());
        assertEquals(2, s.fieldValues().get("price").count());
        assertEquals(3, s.recordsWithFields(), "the keyless record had no fields");
        assertEquals("side", s.firstField());
        assertEquals(List.of("side", "price"), List.copyOf(s.fieldValues().keySet()));
        assertEquals(4 / 1.5, s.recordsPerSecond(), 1e-9);
    }

    @Test
    void fieldsAreCountedOnTheFirstRecordsOfTheSampleOnly() {
        KeyTally tally = new KeyTally();
        for (int i = 0; i < KeyTally.FIELD_RECORDS; i++) {
            tally.record(null);
        }
        assertTrue(tally.wantsFields(), "record " + KeyTally.FIELD_RECORDS + " is still counted");
        tally.record(null);
        assertFalse(tally.wantsFields());
    }

    @Test
    void valuesWithoutFieldsLeaveNoFirstFieldAndWideRecordsAreCapped() {
        KeyTally tally = new KeyTally();
        tally.record(new byte[] {1});
        assertNull(tally.sample("t", 1, 1, 0, "end", List.of(0)).firstField());
        for (int i = 0; i < KeyTally.MAX_FIELDS + 5; i++) {
            tally.field("f" + i, "v");
        }
        assertEquals(
                KeyTally.MAX_FIELDS,
                tally.sample("t", 1, 1, 0, "end", List.of(0)).fieldValues().size());
    }
}
