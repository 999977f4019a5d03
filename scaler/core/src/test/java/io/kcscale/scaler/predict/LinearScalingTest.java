package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class LinearScalingTest {

    @Test
    void tasksAreTheCeilingOfRateOverPerTaskRate() {
        LinearScaling model = new LinearScaling(70);
        assertEquals(OptionalInt.of(143), model.tasksFor(10_000)); // 142.86: the report's graph said 142
        assertEquals(OptionalInt.of(2), model.tasksFor(140)); // exactly two tasks' worth
        assertEquals(OptionalInt.of(3), model.tasksFor(140.0001));
        assertEquals(OptionalInt.of(1), model.tasksFor(1e-9));
    }

    @Test
    void floatingPointNoiseAddsNoTask() {
        // 1.1 / 0.1 is 11.000000000000002 in doubles: a plain ceil would ask for 12
        assertEquals(OptionalInt.of(11), new LinearScaling(0.1).tasksFor(1.1));
        assertEquals(OptionalInt.of(7), new LinearScaling(0.1).tasksFor(0.7));
    }

    @Test
    void aRateBeyondTheIntRangeOfTasksIsOutOfReach() {
        LinearScaling model = new LinearScaling(70);
        assertTrue(model.tasksFor(70.0 * Integer.MAX_VALUE * 1.01).isEmpty());
        assertEquals(OptionalInt.of(Integer.MAX_VALUE), model.tasksFor(70.0 * Integer.MAX_VALUE));
        assertEquals(Double.POSITIVE_INFINITY, model.ceilingRate());
    }
}
