package io.kcscale.lab.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kcscale.vocabulary.Arrivals;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadTraceTest {

    @Test
    void theStandardTraceStepsFromOneToFourTimesATasksCapacityAndBackThenAddsNoise() {
        LoadTrace t = LoadTrace.standard(2600);
        assertEquals(
                List.of(2600.0, 10_400.0, 2600.0, 2600.0),
                t.phases().stream().map(LoadPhase::ratePerSecond).toList());
        assertEquals(Arrivals.POISSON, t.phases().get(3).arrivals());
        assertEquals(1020, t.durationSeconds());
        assertEquals(420, t.startOf(2));
        assertEquals("4x", t.phaseAt(120).name());
        assertEquals("1x", t.phaseAt(119.9).name());
        assertEquals("1x poisson", t.phaseAt(5000).name(), "past the end the last phase holds");
        assertEquals(255, t.shortened(0.25).durationSeconds());
    }

    @Test
    void everyShapeRunsHalfAnHourAndStartsAtOneTasksCapacity() {
        for (LoadTrace t : java.util.List.of(
                LoadTrace.step(2600), LoadTrace.ramp(2600), LoadTrace.diurnal(2600), LoadTrace.spike(2600))) {
            assertEquals(LoadTrace.SHAPE_SECONDS, t.durationSeconds(), 1e-6);
            assertEquals(2600, t.phaseAt(0).ratePerSecond(), 60, "the night's or the steady state's rate");
        }
        assertEquals(4 * 2600, LoadTrace.step(2600).phaseAt(500).ratePerSecond());
        assertEquals(6 * 2600, LoadTrace.ramp(2600).phaseAt(800).ratePerSecond());
        assertEquals(4 * 2600, LoadTrace.diurnal(2600).phaseAt(900).ratePerSecond(), 5, "noon");
        assertEquals(Arrivals.POISSON, LoadTrace.diurnal(2600).phaseAt(900).arrivals());
        assertEquals(8 * 2600, LoadTrace.spike(2600).phaseAt(330).ratePerSecond());
        assertEquals(2600, LoadTrace.spike(2600).phaseAt(361).ratePerSecond());
    }

    @Test
    void theHotKeyAndExpensiveRebalanceShapesChangeThePipelineNotTheLoad() {
        SimulationSettings base = SimulationSettings.builder().build();
        assertEquals(1.0, TraceShape.HOT_KEY.pipeline(base).keySkew());
        assertEquals(30, TraceShape.EXPENSIVE_REBALANCE.pipeline(base).rebalancePauseSeconds());
        assertEquals(base, TraceShape.STEP.pipeline(base));
        assertEquals(
                LoadTrace.step(2600).phases(), TraceShape.HOT_KEY.trace(2600).phases());
        assertEquals(TraceShape.HOT_KEY, TraceShape.of("hot-key"));
        assertThrows(IllegalArgumentException.class, () -> TraceShape.of("sawtooth"));
    }

    @Test
    void anEmptyTraceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LoadTrace(List.of()));
    }
}
