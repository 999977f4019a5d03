package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeldOutTest {

    @Test
    void twoFitPointsPredictLinearlyFromTheSlowerTaskAndTheErrorIsSignedAgainstTheMeasurement() {
        // 70/s for one task, 68/s each for two: the linear model takes the slower, 68 per task
        HeldOut.Report r = HeldOut.evaluate(
                List.of(new HeldOut.Measured(1, 70), new HeldOut.Measured(2, 136)),
                List.of(new HeldOut.Measured(4, 250)));
        assertEquals("linear", r.model());
        assertEquals(68, r.perTaskRate(), 1e-9);
        HeldOut.Point p = r.points().get(0);
        assertEquals(272, p.predicted(), 1e-9);
        assertEquals(8.8, p.errorPercent(), 1e-9);
        assertTrue(r.goalMet());
        // the user asks for 80% of what 4 tasks are predicted to carry: 4 tasks, which sustained 250 >= 217
        HeldOut.Decision d = r.decision();
        assertEquals(217, d.targetRate(), 1e-9);
        assertEquals(4, d.recommendedTasks());
        assertEquals(250, d.measuredRate(), 1e-9);
        assertTrue(d.held());
    }

    @Test
    void aPredictionFarAboveTheMeasurementMissesTheGoalAndTheDecisionFails() {
        HeldOut.Report r = HeldOut.evaluate(
                List.of(new HeldOut.Measured(1, 100), new HeldOut.Measured(2, 200)),
                List.of(new HeldOut.Measured(3, 290), new HeldOut.Measured(6, 300)));
        assertEquals(100, r.worstErrorPercent(), 1e-9);
        assertFalse(r.goalMet());
        assertEquals(480, r.decision().targetRate(), 1e-9);
        assertEquals(6, r.decision().recommendedTasks());
        assertFalse(r.decision().held());
    }

    @Test
    void threeCountsAreFittedWithTheLawAndItsContentionShowsInThePrediction() {
        // X(N) = 100 N / (1 + 0.1 (N - 1)): 100, 181.8, 250 for 1..3; 5 tasks: 357.1
        HeldOut.Report r = HeldOut.evaluate(
                List.of(
                        new HeldOut.Measured(1, 100),
                        new HeldOut.Measured(2, 100 * 2 / 1.1),
                        new HeldOut.Measured(3, 250)),
                List.of(new HeldOut.Measured(5, 100 * 5 / 1.4)));
        assertEquals("usl", r.model());
        assertNotNull(r.usl());
        assertEquals(100 * 5 / 1.4, r.points().get(0).predicted(), 0.5);
        assertEquals(0, r.points().get(0).errorPercent(), 0.2);
    }

    @Test
    void pastTheLawsPeakTheRecommendationIsASmallerCountJudgedOnlyWhenItWasHeldOut() {
        // κ 0.1: 100, 166.7, 187.5 for 1..3, then falling; 8 tasks carry 121.2, which 2 tasks already exceed
        double[] x = {100, 200 / 1.2, 300 / 1.6};
        HeldOut.Report r = HeldOut.evaluate(
                List.of(new HeldOut.Measured(1, x[0]), new HeldOut.Measured(2, x[1]), new HeldOut.Measured(3, x[2])),
                List.of(new HeldOut.Measured(8, 120)));
        assertEquals(800 / 6.6, r.points().get(0).predicted(), 1);
        assertEquals(2, r.decision().recommendedTasks());
        // 2 tasks were a fit point: the model agrees with it by construction, so it judges nothing
        assertNull(r.decision().measuredRate());
        assertNull(r.decision().held());
        HeldOut.Report unmeasured = HeldOut.evaluate(
                List.of(
                        new HeldOut.Measured(1, x[0]),
                        new HeldOut.Measured(3, x[2]),
                        new HeldOut.Measured(4, 400 / 2.2)),
                List.of(new HeldOut.Measured(8, 120)));
        assertEquals(2, unmeasured.decision().recommendedTasks());
        assertNull(unmeasured.decision().measuredRate());
        assertNull(unmeasured.decision().held());
    }

    @Test
    void superlinearFitPointsAreRefusedAndEveryHeldOutPointIsStillReported() {
        // a loaded machine: one task measured 5/s, two tasks 13/s; predict tasks refuses, the validation fails
        HeldOut.Report r = HeldOut.evaluate(
                List.of(new HeldOut.Measured(1, 5), new HeldOut.Measured(2, 13), new HeldOut.Measured(4, 24)),
                List.of(new HeldOut.Measured(6, 26)));
        assertNull(r.model());
        assertTrue(r.refusal().contains("superlinear"), r.refusal());
        assertEquals(List.of(new HeldOut.Point(6, null, 26, null)), r.points());
        assertNull(r.worstErrorPercent());
        assertFalse(r.goalMet());
        assertNull(r.decision());
    }

    @Test
    void aCountInBothListsOrAFitPointThatSustainedNothingIsRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> HeldOut.evaluate(List.of(new HeldOut.Measured(2, 100)), List.of(new HeldOut.Measured(2, 100))));
        assertThrows(
                IllegalArgumentException.class,
                () -> HeldOut.evaluate(List.of(new HeldOut.Measured(1, 0)), List.of(new HeldOut.Measured(2, 100))));
    }
}
