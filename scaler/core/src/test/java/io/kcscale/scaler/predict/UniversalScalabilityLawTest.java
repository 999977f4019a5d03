package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UniversalScalabilityLawTest {

    @Test
    void throughputFollowsTheFormula() {
        UniversalScalabilityLaw usl = new UniversalScalabilityLaw(70, 0.05, 0.002);
        assertEquals(70, usl.throughput(1), 1e-9);
        // 70 x 10 / (1 + 0.05 x 9 + 0.002 x 10 x 9) = 700 / 1.63
        assertEquals(700 / 1.63, usl.throughput(10), 1e-9);
    }

    @Test
    void withoutContentionOrCoherencyItIsLinear() {
        UniversalScalabilityLaw usl = new UniversalScalabilityLaw(70, 0, 0);
        assertEquals(new LinearScaling(70).tasksFor(10_000), usl.tasksFor(10_000));
        assertEquals(Double.POSITIVE_INFINITY, usl.ceilingRate());
        assertEquals(Integer.MAX_VALUE, usl.peakTasks());
    }

    @Test
    void throughputPeaksAtTheWholeCountNearestTheOptimum() {
        UniversalScalabilityLaw usl = new UniversalScalabilityLaw(70, 0.05, 0.002);
        double optimum = Math.sqrt((1 - 0.05) / 0.002); // 21.8
        int peak = usl.peakTasks();
        assertTrue(Math.abs(peak - optimum) < 1, "peak " + peak);
        for (int n = 1; n <= 200; n++) {
            assertTrue(usl.throughput(n) <= usl.throughput(peak), "N=" + n);
        }
        assertEquals(usl.throughput(peak), usl.ceilingRate());
    }

    @Test
    void contentionAloneApproachesLambdaOverSigma() {
        UniversalScalabilityLaw usl = new UniversalScalabilityLaw(70, 0.25, 0);
        assertEquals(280, usl.ceilingRate(), 1e-9);
        assertEquals(Integer.MAX_VALUE, usl.peakTasks());
        assertTrue(usl.tasksFor(280).isEmpty(), "the asymptote is never reached");
        // 70N / (1 + 0.25(N-1)) >= 210 from N = 9
        assertEquals(9, usl.tasksFor(210).getAsInt());
    }

    @Test
    void aFullySerialSinkPeaksAtOneTask() {
        UniversalScalabilityLaw usl = new UniversalScalabilityLaw(70, 1, 0.01);
        assertEquals(1, usl.peakTasks());
        assertEquals(70, usl.ceilingRate(), 1e-9);
        assertTrue(usl.tasksFor(71).isEmpty());
    }

    @Test
    void tasksForIsTheSmallestSufficientCountAndEmptyAboveTheCeiling() {
        UniversalScalabilityLaw usl = new UniversalScalabilityLaw(70, 0.05, 0.002);
        for (double rate = 10; rate < usl.ceilingRate(); rate += 7.3) {
            int n = usl.tasksFor(rate).orElseThrow();
            assertTrue(usl.throughput(n) >= rate, "enough at " + rate);
            assertTrue(n == 1 || usl.throughput(n - 1) < rate, "smallest at " + rate);
        }
        assertTrue(usl.tasksFor(usl.ceilingRate() * 1.001).isEmpty());
    }
}
