package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.input.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskPredictionTest {

    @Test
    void tenThousandPerSecondAtSeventyPerTaskNeeds143Tasks() {
        TasksResult result = TaskPrediction.predict(linear(10_000, 70));
        assertEquals(143, result.minimumTasks());
        assertEquals(179, result.recommendedTasks()); // 10,000 / (0.8 x 70) = 178.6
        assertEquals(179, result.partitions());
        assertEquals("linear", result.model());
        assertNull(result.burstTasks());
        assertNull(result.sinkGrowth());
        assertTrue(
                result.assumptions().stream().anyMatch(a -> a.contains("linearly at the given 70")),
                result.assumptions().toString());
    }

    @Test
    void utilizationOfOneRecommendsTheMinimum() {
        TasksResult result = TaskPrediction.predict(request(10_000.0, 70.0, null, 1.0, null, null, null, null));
        assertEquals(result.minimumTasks(), result.recommendedTasks());
    }

    @Test
    void poissonBurstTasksAbsorbTheQuantileOfArrivalsPerWindow() {
        TasksResult result = TaskPrediction.predict(request(10_000.0, 70.0, null, null, "poisson", 1.0, 0.99, null));
        TasksResult.Burst burst = result.burst();
        assertNotNull(burst);
        double arrivals = PoissonBurst.of(10_000, 1, 0.99).arrivals();
        assertEquals(arrivals, burst.arrivalsInWindow());
        assertEquals((int) Math.ceil(arrivals / 70), result.burstTasks());
        assertTrue(result.burstTasks() > result.minimumTasks());
        assertTrue(result.partitions() >= result.burstTasks() && result.partitions() >= result.recommendedTasks());
    }

    @Test
    void arrivalsAreCaseInsensitiveAndDefaultToSteady() {
        assertNotNull(TaskPrediction.predict(request(100.0, 70.0, null, null, "Poisson", null, null, null))
                .burst());
        assertNull(TaskPrediction.predict(request(100.0, 70.0, null, null, "steady", null, null, null))
                .burst());
        assertField(
                "arrivals", () -> TaskPrediction.predict(request(100.0, 70.0, null, null, "bursty", null, null, null)));
        assertField(
                "arrivals", () -> TaskPrediction.predict(request(100.0, 70.0, null, null, "bursts", null, null, null)));
    }

    @Test
    void latencyAtLagIsLittlesLaw() {
        // lag 2 at 40/s is 50 ms; lag 200 at 200/s is 1 s
        assertEquals(
                0.05,
                TaskPrediction.predict(request(40.0, 70.0, null, null, null, null, null, 2.0))
                        .latencySecondsAtLag(),
                1e-12);
        assertEquals(
                1.0,
                TaskPrediction.predict(request(200.0, 70.0, null, null, null, null, null, 200.0))
                        .latencySecondsAtLag(),
                1e-12);
        assertEquals(
                0.0,
                TaskPrediction.predict(request(200.0, 70.0, null, null, null, null, null, 0.0))
                        .latencySecondsAtLag());
    }

    @Test
    void badInputNamesItsField() {
        assertField("targetRate", () -> TaskPrediction.predict(linear(0, 70)));
        assertField("targetRate", () -> TaskPrediction.predict(linear(-10_000, 70)));
        assertField("targetRate", () -> TaskPrediction.predict(linear(Double.NaN, 70)));
        assertField(
                "targetRate", () -> TaskPrediction.predict(request(null, 70.0, null, null, null, null, null, null)));
        assertField("perTaskRate", () -> TaskPrediction.predict(linear(100, 0)));
        assertField(
                "perTaskRate", () -> TaskPrediction.predict(request(100.0, null, null, null, null, null, null, null)));
        assertField(
                "perTaskRate",
                () -> TaskPrediction.predict(
                        request(100.0, 70.0, List.of(point(1, 70)), null, null, null, null, null)));
        assertField(
                "utilization", () -> TaskPrediction.predict(request(100.0, 70.0, null, 0.0, null, null, null, null)));
        assertField(
                "utilization", () -> TaskPrediction.predict(request(100.0, 70.0, null, 1.2, null, null, null, null)));
        assertField(
                "quantile", () -> TaskPrediction.predict(request(100.0, 70.0, null, null, "poisson", 1.0, 1.0, null)));
        assertField("quantile", () -> TaskPrediction.predict(request(100.0, 70.0, null, null, null, null, 0.9, null)));
        assertField(
                "burstWindowSeconds",
                () -> TaskPrediction.predict(request(100.0, 70.0, null, null, null, 5.0, null, null)));
        assertField(
                "burstWindowSeconds",
                () -> TaskPrediction.predict(request(100.0, 70.0, null, null, "poisson", -1.0, null, null)));
        assertField("lag", () -> TaskPrediction.predict(request(100.0, 70.0, null, null, null, null, null, -1.0)));
        assertField(
                "measurements",
                () -> TaskPrediction.predict(request(100.0, null, List.of(), null, null, null, null, null)));
        assertField(
                "measurements",
                () -> TaskPrediction.predict(
                        request(100.0, null, List.of(point(1, 70), point(0, 10)), null, null, null, null, null)));
        assertField(
                "measurements",
                () -> TaskPrediction.predict(
                        request(100.0, null, List.of(new Measurement(2.0, null)), null, null, null, null, null)));
    }

    @Test
    void figuresThatWouldOverflowADoubleNameTheInputToChange() {
        double max = Double.MAX_VALUE;
        // each input in range, a derived figure not: targetRate / utilization, lag / targetRate
        InvalidInputException capacity = assertField(
                "utilization", () -> TaskPrediction.predict(request(max, max / 4, null, 0.5, null, null, null, null)));
        assertTrue(capacity.getMessage().contains("targetRate / utilization"), capacity.getMessage());
        assertField("lag", () -> TaskPrediction.predict(request(1e-300, 1.0, null, null, null, null, null, 1e300)));
        assertField(
                "burstWindowSeconds",
                () -> TaskPrediction.predict(request(max, max, null, null, "poisson", 2.0, null, null)));
        // the Poisson burst of a tiny quantile is a count near the mean, not -∞
        TasksResult low = TaskPrediction.predict(request(1e9, 1e9, null, null, "poisson", 1.0, 1e-300, null));
        assertTrue(low.burst().arrivalsInWindow() > 0.99e9, low.burst().toString());
    }

    @Test
    void hugeTargetsAreAClearErrorNotAnOverflow() {
        InvalidInputException e = assertField("targetRate", () -> TaskPrediction.predict(linear(1e300, 70)));
        assertTrue(e.getMessage().contains("more than 2,147,483,647 tasks"), e.getMessage());
        // the largest target that still fits
        assertEquals(
                Integer.MAX_VALUE,
                TaskPrediction.predict(request(70.0 * Integer.MAX_VALUE, 70.0, null, 1.0, null, null, null, null))
                        .minimumTasks());
        assertField(
                "burstWindowSeconds",
                () -> TaskPrediction.predict(request(1e300, 1e300, null, null, "poisson", 1e300, null, null)));
    }

    @Test
    void oneOrTwoTaskCountsScaleLinearlyAtTheSlowestMeasuredPerTaskRate() {
        TasksResult result = TaskPrediction.predict(
                request(10_000.0, null, List.of(point(1, 72), point(3, 210)), null, null, null, null, null));
        assertEquals("linear", result.model());
        assertEquals(70, result.perTaskRate(), 1e-12);
        assertEquals(143, result.minimumTasks());
        assertTrue(
                result.assumptions().get(0).contains("too few to fit"),
                result.assumptions().get(0));
    }

    @Test
    void threeOrMoreTaskCountsPredictFromTheUslFit() {
        UniversalScalabilityLaw truth = new UniversalScalabilityLaw(70, 0.05, 0.002);
        TasksResult result = TaskPrediction.predict(
                request(400.0, null, measured(truth, 1, 2, 3, 4, 6, 8), null, null, null, null, null));
        assertEquals("usl", result.model());
        int minimum = result.minimumTasks();
        // linear scaling would say ceil(400 / 70) = 6; contention makes it more
        assertEquals(truth.tasksFor(400).getAsInt(), minimum);
        assertTrue(minimum > 6, "minimum " + minimum);
        assertNotNull(result.usl());
        assertEquals(truth.peakTasks(), result.usl().peakTasks());
        assertTrue(result.assumptions().stream().anyMatch(a -> a.startsWith("extrapolates")), "beyond 8 measured");
    }

    @Test
    void aTargetAboveTheCeilingSaysTheSinkMustGrowAndByHowMuch() {
        UniversalScalabilityLaw truth = new UniversalScalabilityLaw(70, 0.05, 0.002);
        TasksResult result = TaskPrediction.predict(
                request(10_000.0, null, measured(truth, 1, 2, 4, 8, 16, 24), null, null, null, null, null));
        assertNull(result.minimumTasks());
        assertNull(result.recommendedTasks());
        TasksResult.SinkGrowth growth = result.sinkGrowth();
        assertNotNull(growth);
        assertEquals(12_500, growth.requiredRate(), 1e-9);
        assertEquals(truth.ceilingRate(), growth.ceilingRate(), truth.ceilingRate() * 1e-6);
        assertEquals(12_500 / growth.ceilingRate(), growth.factor(), 1e-9);
        assertEquals(12_500 - growth.ceilingRate(), growth.additionalRate(), 1e-9);
        assertEquals(truth.peakTasks(), result.partitions(), "no more partitions than tasks that help");
        assertTrue(
                result.advice().get(0).contains("the sink, not the connector, must grow"),
                result.advice().get(0));
    }

    @Test
    void onlyTheRecommendedRateBeyondTheCeilingStillGivesTheMinimum() {
        UniversalScalabilityLaw truth = new UniversalScalabilityLaw(70, 0.05, 0.002);
        double target = truth.ceilingRate() * 0.9; // reachable, but not with 20% headroom
        TasksResult result = TaskPrediction.predict(
                request(target, null, measured(truth, 1, 2, 4, 8, 16, 24), null, null, null, null, null));
        assertNotNull(result.minimumTasks());
        assertNull(result.recommendedTasks());
        assertEquals(target / 0.8, result.sinkGrowth().requiredRate(), 1e-9);
    }

    @Test
    void measurementsTheUslCannotFitAreAnInputErrorNamingThem() {
        List<Measurement> wild = List.of(point(127, 0.022), point(197, 1870), point(180, 108_125), point(149, 0.052));
        InvalidInputException e = assertField(
                "measurements", () -> TaskPrediction.predict(request(100.0, null, wild, null, null, null, null, null)));
        assertTrue(e.getMessage().contains("steady state"), e.getMessage());
    }

    @Test
    void aPoorFitRefusesAndSaysWhatToMeasure() {
        List<Measurement> noisy = List.of(point(1, 70), point(2, 40), point(3, 210), point(4, 90), point(5, 330));
        InvalidInputException e = assertField(
                "measurements",
                () -> TaskPrediction.predict(request(100.0, null, noisy, null, null, null, null, null)));
        assertTrue(e.getMessage().contains("poorly (R² 0.546, below 0.9)"), e.getMessage());
        assertTrue(e.getMessage().contains("measure each task count again"), e.getMessage());
    }

    @Test
    void superlinearPointsRefuseRatherThanAnswerOneTask() {
        // one task measured 10/s: no answer may say one task carries 100/s
        List<Measurement> superlinear = List.of(point(1, 10), point(2, 100), point(3, 150), point(4, 160));
        InvalidInputException e = assertField(
                "measurements",
                () -> TaskPrediction.predict(request(100.0, null, superlinear, null, null, null, null, null)));
        assertTrue(
                e.getMessage().contains("superlinear: 2 tasks did 50 records/s per task, 5x the 10 of 1 task(s)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("measure 1 and 2 tasks again"), e.getMessage());
        // within a quarter of the fewest tasks' rate is noise, not a refusal
        assertEquals(
                2,
                TaskPrediction.predict(
                                request(100.0, null, List.of(point(1, 50), point(2, 120)), 1.0, null, null, null, null))
                        .minimumTasks());
    }

    @Test
    void aStraddledCeilingNamesTheCountToMeasureInsteadOfTheSinkMustGrow() {
        // the sweep of docs/performance.md: the fit tops out near 1,683/s at 7 tasks, but its interval reaches 3,125
        List<Measurement> sweep = List.of(point(1, 546), point(2, 1062), point(3, 1276), point(5, 1621));
        TasksResult result = TaskPrediction.predict(request(2500.0, null, sweep, null, null, null, null, null));
        assertNull(result.recommendedTasks());
        TasksResult.Interval ceiling = result.intervals().ceilingRate();
        assertTrue(ceiling.high() == null || ceiling.high() >= 3125, ceiling.toString());
        assertNull(result.sinkGrowth(), "the interval reaches the target: the sink need not grow");
        assertEquals(7, result.measureNext().tasks());
        assertTrue(
                result.advice().get(0).contains("undecided until 7 tasks are measured"),
                result.advice().toString());
        assertTrue(
                result.advice().stream().noneMatch(a -> a.contains("the sink, not the connector, must grow")),
                result.advice().toString());
        // far above the interval the conclusion is firm again
        TasksResult far = TaskPrediction.predict(request(20_000.0, null, sweep, null, null, null, null, null));
        assertNull(far.measureNext());
        assertTrue(
                far.advice().get(0).contains("the sink, not the connector, must grow"),
                far.advice().toString());
    }

    @Test
    void aRecommendedCountWhoseIntervalFallsBelowTheTargetIsToBeMeasured() {
        List<Measurement> sweep = List.of(point(1, 546), point(2, 1062), point(3, 1276), point(5, 1621));
        TasksResult result = TaskPrediction.predict(request(1300.0, null, sweep, null, null, null, null, null));
        TasksResult.Interval sustained = result.intervals().sustainedRate();
        assertTrue(sustained.low() < 1300, sustained.toString());
        assertEquals(result.recommendedTasks(), result.measureNext().tasks());
        TasksResult.TaskInterval tasks = result.intervals().recommendedTasks();
        assertEquals(result.recommendedTasks(), tasks.estimate());
        assertTrue(
                tasks.low() <= tasks.estimate() && (tasks.high() == null || tasks.high() >= tasks.estimate()),
                tasks.toString());
        // 2 tasks: what they sustain, 4% of the estimate wider than the bootstrap on each side, starts near 498
        TasksResult firm = TaskPrediction.predict(request(490.0, null, sweep, null, null, null, null, null));
        assertEquals(2, firm.recommendedTasks());
        assertTrue(
                firm.intervals().sustainedRate().low() >= 490, firm.intervals().toString());
        assertNull(firm.measureNext());
    }

    @Test
    void anyPositiveMeasurementsGiveAPredictionOrAnInputError() {
        Random random = new Random(3);
        for (int trial = 0; trial < 2_000; trial++) {
            List<Measurement> points = new ArrayList<>();
            for (int i = 0; i < 3 + random.nextInt(6); i++) {
                points.add(
                        point(1 + random.nextInt(trial % 2 == 0 ? 5 : 200), Math.pow(10, random.nextDouble() * 8 - 2)));
            }
            TasksRequest request =
                    request(Math.pow(10, random.nextDouble() * 6), null, points, null, "poisson", null, null, null);
            try {
                TaskPrediction.predict(request);
            } catch (InvalidInputException e) {
                assertTrue(Set.of("measurements", "targetRate").contains(e.field()), e.getMessage());
            }
        }
    }

    @Test
    void moreTargetRateNeverNeedsFewerTasks() {
        Random random = new Random(20_240_601);
        for (int trial = 0; trial < 300; trial++) {
            List<Measurement> points = trial % 2 == 0
                    ? null
                    : measured(
                            new UniversalScalabilityLaw(
                                    10 + random.nextDouble() * 500,
                                    random.nextDouble() * 0.2,
                                    random.nextDouble() * 0.001),
                            1,
                            2,
                            4,
                            8);
            Double perTaskRate = points == null ? 1 + random.nextDouble() * 1_000 : null;
            double utilization = 0.1 + random.nextDouble() * 0.9;
            double low = 1 + random.nextDouble() * 20_000;
            double high = low * (1 + random.nextDouble());
            TasksResult lower =
                    TaskPrediction.predict(request(low, perTaskRate, points, utilization, "poisson", 1.0, 0.99, null));
            TasksResult higher =
                    TaskPrediction.predict(request(high, perTaskRate, points, utilization, "poisson", 1.0, 0.99, null));
            String trialName = "trial " + trial + ": " + low + " -> " + high;
            assertNotLess(lower.minimumTasks(), higher.minimumTasks(), trialName);
            assertNotLess(lower.recommendedTasks(), higher.recommendedTasks(), trialName);
            assertNotLess(lower.burstTasks(), higher.burstTasks(), trialName);
        }
    }

    /** Null means out of reach: more than any count. */
    private static void assertNotLess(Integer lower, Integer higher, String message) {
        if (higher != null) {
            assertNotNull(lower, message);
            assertTrue(higher >= lower, message + ": " + lower + " then " + higher);
        }
    }

    static InvalidInputException assertField(String field, Runnable prediction) {
        InvalidInputException e = assertThrows(InvalidInputException.class, prediction::run);
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().startsWith(field + " "), e.getMessage());
        return e;
    }

    private static List<Measurement> measured(UniversalScalabilityLaw law, int... tasks) {
        List<Measurement> points = new ArrayList<>();
        for (int n : tasks) {
            points.add(point(n, law.throughput(n)));
        }
        return points;
    }

    private static Measurement point(double tasks, double throughput) {
        return new Measurement(tasks, throughput);
    }

    @Test
    void morePointsThanAPredictionTakesAreRefusedBeforeAnyFit() {
        List<Measurement> many = new java.util.ArrayList<>();
        for (int i = 0; i <= ModelChoice.MOST_MEASUREMENTS; i++) {
            many.add(new Measurement((double) (1 + i % 8), 100.0 * (1 + i % 8)));
        }
        InvalidInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                InvalidInputException.class,
                () -> TaskPrediction.predict(request(1000.0, null, many, null, null, null, null, null)));
        assertEquals("measurements", e.field());
        assertEquals(
                "measurements hold 1,001 points, more than the 1,000 a prediction takes: give the mean of each task count's runs",
                e.getMessage());
        org.junit.jupiter.api.Assertions.assertNotNull(
                TaskPrediction.predict(request(
                                1000.0,
                                null,
                                many.subList(0, ModelChoice.MOST_MEASUREMENTS),
                                null,
                                null,
                                null,
                                null,
                                null))
                        .usl(),
                "the most it takes is still fitted");
    }

    private static TasksRequest linear(double target, double perTask) {
        return request(target, perTask, null, null, null, null, null, null);
    }

    private static TasksRequest request(
            Double target,
            Double perTask,
            List<Measurement> measurements,
            Double utilization,
            String arrivals,
            Double window,
            Double quantile,
            Double lag) {
        return new TasksRequest(target, perTask, measurements, utilization, arrivals, window, quantile, lag);
    }
}
