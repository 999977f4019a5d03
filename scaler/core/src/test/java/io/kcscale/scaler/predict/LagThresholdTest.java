package io.kcscale.scaler.predict;

import static io.kcscale.scaler.predict.TaskPredictionTest.assertField;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LagThresholdTest {

    @Test
    void thirtySecondsAtOneHundredPerSecondIsALagOf3000() {
        LagThresholdResult result = LagThreshold.predict(new LagThresholdRequest(100.0, 1.0, 30.0));
        assertEquals(3_000, result.lagThreshold());
        assertEquals(100, result.drainRate());
    }

    @Test
    void tasksMultiplyTheDrainRateAndFractionsRoundDown() {
        assertEquals(
                21_000,
                LagThreshold.predict(new LagThresholdRequest(70.0, 5.0, 60.0)).lagThreshold());
        assertEquals(
                2, LagThreshold.predict(new LagThresholdRequest(1.0, 1.0, 2.9)).lagThreshold());
        // 0.7 x 10 x 10 is 69.99999999999999 in doubles
        assertEquals(
                70,
                LagThreshold.predict(new LagThresholdRequest(0.7, 10.0, 10.0)).lagThreshold());
    }

    @Test
    void badInputNamesItsField() {
        assertField("perTaskRate", () -> LagThreshold.predict(new LagThresholdRequest(0.0, 1.0, 30.0)));
        assertField("tasks", () -> LagThreshold.predict(new LagThresholdRequest(100.0, 0.0, 30.0)));
        assertField("tasks", () -> LagThreshold.predict(new LagThresholdRequest(100.0, 1e12, 30.0)));
        assertField("latencySloSeconds", () -> LagThreshold.predict(new LagThresholdRequest(100.0, 1.0, -30.0)));
        assertField("latencySloSeconds", () -> LagThreshold.predict(new LagThresholdRequest(100.0, 1.0, null)));
        assertField("latencySloSeconds", () -> LagThreshold.predict(new LagThresholdRequest(1e300, 1.0, 1e300)));
    }
}
