package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UslFitTest {

    @ParameterizedTest
    @CsvSource({
        "70,    0.05, 0.002,  '1,2,3,4,5,6,7,8,9,10'",
        "1000,  0.02, 0.0001, '1,2,4,8,16,32,64'",
        "70,    0.1,  0.02,   '2,4,6,8,10,12'",
        "350,   0.3,  0,      '1,2,3,5,8'",
        "55,    0,    0.01,   '1,3,5'"
    })
    void recoversKnownParametersFromExactPoints(double lambda, double sigma, double kappa, String counts) {
        double[] tasks = parse(counts);
        UslFit fit = UslFit.of(tasks, points(new UniversalScalabilityLaw(lambda, sigma, kappa), tasks, 0, null));
        assertWithin(lambda, fit.law().lambda(), "λ");
        assertWithin(sigma, fit.law().sigma(), "σ");
        assertWithin(kappa, fit.law().kappa(), "κ");
        assertEquals(1, fit.rSquared(), 1e-9);
    }

    @Test
    void noisyPointsStillGiveTheCeilingAndPeakWithinFivePercent() {
        UniversalScalabilityLaw truth = new UniversalScalabilityLaw(70, 0.05, 0.002);
        double[] tasks = parse("1,2,3,4,5,6,8,10,12,16,20,24,28,32");
        UslFit fit = UslFit.of(tasks, points(truth, tasks, 0.005, new Random(7)));
        assertWithin(truth.ceilingRate(), fit.law().ceilingRate(), "ceiling");
        assertWithin(truth.lambda(), fit.law().lambda(), "λ");
        assertWithin(truth.peakTasks(), fit.law().peakTasks(), "peak");
        assertTrue(fit.rSquared() > 0.99);
    }

    @Test
    void linearPointsFitWithoutContention() {
        // the field report: 70, 140, 210, 350/s at 1, 2, 3, 5 tasks once keys and shards were fixed
        UslFit fit = UslFit.of(new double[] {1, 2, 3, 5}, new double[] {70, 140, 210, 350});
        assertEquals(70, fit.law().lambda(), 1e-6);
        assertEquals(0, fit.law().sigma(), 1e-9);
        assertEquals(0, fit.law().kappa(), 1e-9);
    }

    @Test
    void needsThreeDistinctTaskCounts() {
        assertThrows(
                IllegalArgumentException.class,
                () -> UslFit.of(new double[] {1, 1, 2, 2}, new double[] {70, 71, 139, 141}));
    }

    private static double[] points(UniversalScalabilityLaw law, double[] tasks, double noise, Random random) {
        double[] throughput = new double[tasks.length];
        for (int i = 0; i < tasks.length; i++) {
            double jitter = noise == 0 ? 1 : 1 + noise * (2 * random.nextDouble() - 1);
            throughput[i] = law.throughput((int) tasks[i]) * jitter;
        }
        return throughput;
    }

    private static double[] parse(String counts) {
        return java.util.Arrays.stream(counts.split(","))
                .mapToDouble(Double::parseDouble)
                .toArray();
    }

    private static void assertWithin(double expected, double actual, String what) {
        double tolerance = expected == 0 ? 1e-6 : Math.abs(expected) * 0.05;
        assertEquals(expected, actual, tolerance, what + " within 5%");
    }
}
