package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.scaler.input.Numbers;
import io.kcscale.scaler.predict.Measurement;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntervalCheckTest {

    /** X(N) = 40 N / (1 + 0.05 (N − 1)), measured at 1–4 tasks with a few percent of noise. */
    private static final List<HeldOut.Measured> FIT = List.of(
            new HeldOut.Measured(1, 41),
            new HeldOut.Measured(2, 75),
            new HeldOut.Measured(3, 112),
            new HeldOut.Measured(4, 137));

    private static final double RESOLUTION = 0.01;

    private static double law(int n) {
        return 40.0 * n / (1 + 0.05 * (n - 1));
    }

    private static List<Measurement> measurements() {
        return FIT.stream()
                .map(m -> new Measurement((double) m.tasks(), m.sustainedRate()))
                .toList();
    }

    @Test
    void runsAroundTheCurveFallInsideAndTheIntervalIsKept() {
        double at6 = law(6);
        IntervalCheck.Result c = IntervalCheck.of(FIT, 6, List.of(at6 * 0.98, at6 * 1.02, at6), RESOLUTION)
                .orElseThrow();
        assertEquals(3, c.inside(), c.describe());
        assertTrue(c.held(), c.describe());
        assertEquals(0, c.margin());
        assertEquals(c.interval(), c.widened());
        assertEquals(IntervalCheck.SIMULATED_RUNS, c.simulatedRuns());
        assertEquals(0.02, c.runToRunSpread(), 0.001);
        assertTrue(
                c.describe().endsWith("the interval held; predict tasks widens by 4% by default: enough"),
                c.describe());
    }

    @Test
    void runsTheModelMissesWidenTheIntervalUntilItHoldsThemAtItsLevel() {
        // the sink bends harder past the fit than the law saw: six tasks sustain a third less than it says
        double real = law(6) * 0.67;
        IntervalCheck.Result c = IntervalCheck.of(FIT, 6, List.of(real * 0.99, real * 1.01, real), RESOLUTION)
                .orElseThrow();
        assertFalse(c.held(), c.describe());
        assertTrue(c.simulatedInside() < IntervalCheck.REQUIRED_SHARE * c.simulatedRuns(), c.describe());
        assertTrue(c.margin() > 0, c.describe());
        assertTrue(c.widened().low() <= real * 0.99, c.describe());
        assertTrue(c.describe().contains("widened"), c.describe());
        // a third is far more than the default margin: the line says what to give instead
        assertTrue(c.margin() > TaskPrediction.DEFAULT_INTERVAL_MARGIN, c.describe());
        assertTrue(
                c.describe()
                        .endsWith("predict tasks widens by 4% by default: not enough, give --interval-margin "
                                + Numbers.format(c.margin(), 3)),
                c.describe());
    }

    @Test
    void theIntervalCheckedIsTheBareOne() {
        double at6 = law(6);
        IntervalCheck.Result c =
                IntervalCheck.of(FIT, 6, List.of(at6, at6 * 1.01), RESOLUTION).orElseThrow();
        assertEquals(TaskPrediction.rateInterval(measurements(), 6, 0).orElseThrow(), c.interval());
        assertTrue(c.describe().startsWith("6 task(s): bare 90% interval "), c.describe());
    }

    @Test
    void noSimulatedRunIsNoVerdict() {
        // every draw refused: nothing says whether 90% of runs fall inside, so neither held nor a margin
        IntervalCheck.Result c = IntervalCheck.result(
                6, new TasksResult.Interval(200, 185, 215.0), List.of(190.0, 210.0), 0.05, List.of());
        assertEquals(0, c.simulatedRuns());
        assertNull(c.held());
        assertEquals(0, c.margin());
        assertEquals(c.interval(), c.widened());
        assertEquals(
                "6 task(s): bare 90% interval 185–215 records/s; 2 of 2 runs inside (run-to-run spread 5.0%);"
                        + " no simulated validation: every draw was refused",
                c.describe());
        assertFalse(new ObjectMapper().valueToTree(c).has("held"), "held is absent, not false");
    }

    @Test
    void runsOnOneStepOfTheSearchAreReadAtItsResolution() {
        // the sustained rates of a search land on its steps: three alike show no noise the search could resolve
        double at6 = law(6);
        IntervalCheck.Result c =
                IntervalCheck.of(FIT, 6, List.of(at6, at6, at6), 0.01).orElseThrow();
        assertEquals(0.01, c.runToRunSpread(), 1e-9);
        assertTrue(c.describe().contains("run-to-run spread 1.0%"), c.describe());
    }

    @Test
    void noIntervalWithoutFourFitCountsAndNoCheckFromOneRun() {
        assertTrue(IntervalCheck.of(FIT.subList(0, 3), 6, List.of(200.0, 205.0), RESOLUTION)
                .isEmpty());
        assertTrue(IntervalCheck.of(FIT, 6, List.of(200.0), RESOLUTION).isEmpty());
    }
}
