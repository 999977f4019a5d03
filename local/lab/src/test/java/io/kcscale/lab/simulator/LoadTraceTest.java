package io.kcscale.lab.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kcscale.vocabulary.Arrival;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadTraceTest {

    @Test
    void theStandardTraceStepsFromOneToFourTimesATasksCapacityAndBackThenAddsNoise() {
        LoadTrace t = LoadTrace.standard(2600);
        assertEquals(
                List.of(2600.0, 10_400.0, 2600.0, 2600.0),
                t.phases().stream().map(LoadPhase::ratePerSecond).toList());
        assertEquals(Arrival.POISSON, t.phases().get(3).arrival());
        assertEquals(1020, t.durationSeconds());
        assertEquals(420, t.startOf(2));
        assertEquals("4x", t.phaseAt(120).name());
        assertEquals("1x", t.phaseAt(119.9).name());
        assertEquals("1x poisson", t.phaseAt(5000).name(), "past the end the last phase holds");
        assertEquals(255, t.shortened(0.25).durationSeconds());
    }

    @Test
    void anEmptyTraceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LoadTrace(List.of()));
    }
}
