package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.input.InvalidInputException;
import org.junit.jupiter.api.Test;

class MeasuredCapacityTest {

    @Test
    void aSaturatedPipelinesPerTaskRateIsItsCapacity() {
        // 3 tasks consume 2,400/s while 3,000/s arrive and 12,000 records wait
        assertEquals(800, MeasuredCapacity.perTaskRate("s", 3, 3000, 2400, 12_000), 1e-9);
        // appends level with consumption, a second of backlog: still saturated
        assertEquals(100, MeasuredCapacity.perTaskRate("s", 2, 200, 200, 200), 1e-9);
    }

    @Test
    void aRateWithoutBacklogIsNotACapacity() {
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> MeasuredCapacity.perTaskRate("s", 2, 300, 300, 20));
        assertEquals("measure", e.field());
        assertTrue(
                e.describe(f -> "--" + f).contains("not saturated (lag 20, appended 300.0/s, consumed 300.0/s)"),
                e.getMessage());
        assertTrue(e.describe(f -> "--" + f).endsWith("or give --perTaskRate"), e.getMessage());
    }

    @Test
    void aDrainingBacklogIsNotACapacity() {
        assertThrows(InvalidInputException.class, () -> MeasuredCapacity.perTaskRate("s", 2, 100, 400, 50_000));
    }

    @Test
    void nothingConsumedIsNothingToMeasure() {
        assertThrows(InvalidInputException.class, () -> MeasuredCapacity.perTaskRate("s", 0, 100, 0, 50_000));
        assertThrows(InvalidInputException.class, () -> MeasuredCapacity.perTaskRate("s", 2, 100, 0, 50_000));
    }
}
