package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UslBootstrapTest {

    private static final UniversalScalabilityLaw TRUTH = new UniversalScalabilityLaw(70, 0.05, 0.002);
    /** A fixed ±3% pattern of measurement noise, so that every test sees the same points. */
    private static final double[] NOISE = {
        0.03, -0.02, 0.01, -0.03, 0.02, -0.01, 0.025, -0.015, 0.005, -0.025, 0.015, -0.005
    };

    @Test
    void theReadmeExampleHasIntervalsAroundItsEstimates() {
        TasksResult r = TaskPrediction.predict(
                request(300, List.of(point(1, 70), point(2, 138), point(3, 200), point(5, 290), point(8, 350))));
        TasksResult.Intervals intervals = r.intervals();
        assertNotNull(intervals, r.toString());
        assertEquals(0.90, intervals.level());
        assertTrue(
                intervals.refits() > UslBootstrap.RESAMPLES * 0.9,
                "nearly every refit converges: " + intervals.refits());
        assertContains(intervals.ceilingRate());
        assertNull(intervals.sustainedRate(), "375/s at 80% is above the ceiling: no recommended count");
        assertEquals(r.usl().ceilingRate(), intervals.ceilingRate().estimate(), 1e-9);
    }

    @Test
    void theIntervalContainsTheEstimateAndIsTheSameEveryRun() {
        TasksResult r = TaskPrediction.predict(request(300, noisy(1, 2, 3, 4, 6, 8)));
        assertContains(r.intervals().sustainedRate());
        assertContains(r.intervals().ceilingRate());
        assertEquals(
                r.intervals(),
                TaskPrediction.predict(request(300, noisy(1, 2, 3, 4, 6, 8))).intervals(),
                "a fixed seed");
    }

    @Test
    void morePointsNarrowTheInterval() {
        double few = width(TaskPrediction.predict(request(400, noisy(1, 2, 4, 8, 12)))
                .intervals()
                .ceilingRate());
        double many = width(TaskPrediction.predict(request(400, noisy(1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 18)))
                .intervals()
                .ceilingRate());
        assertTrue(many < few, "12 points " + many + " against 5 points " + few);
    }

    @Test
    void pointsCloserToTheRecommendedCountNarrowItsInterval() {
        // 500/s at 80% needs about 18 tasks of this law
        TasksResult far = TaskPrediction.predict(request(400, noisy(1, 2, 3, 4, 5, 6)));
        TasksResult near = TaskPrediction.predict(request(400, noisy(1, 2, 3, 4, 5, 6, 12, 14, 16, 18)));
        double farWidth = width(far.intervals().sustainedRate())
                / far.intervals().sustainedRate().estimate();
        double nearWidth = width(near.intervals().sustainedRate())
                / near.intervals().sustainedRate().estimate();
        assertTrue(nearWidth < farWidth, "measured up to 18: " + nearWidth + ", up to 6: " + farWidth);
    }

    @Test
    void threePointsLeaveNoResidualForAnInterval() {
        TasksResult r = TaskPrediction.predict(request(100, noisy(1, 2, 3)));
        assertEquals("usl", r.model());
        assertNull(r.intervals());
        assertTrue(
                r.assumptions()
                        .contains("no interval: 3 points for the law's 3 parameters leave no residual to show the"
                                + " measurements' noise; a fourth point (or a repeat) gives one"),
                r.assumptions().toString());
    }

    @Test
    void aLinearModelHasNoInterval() {
        assertNull(TaskPrediction.predict(request(100, List.of(point(1, 70), point(2, 140))))
                .intervals());
    }

    @Test
    void farBeyondTheMeasuredRangeItSaysTheCountIsAnAssumption() {
        TasksResult r = TaskPrediction.predict(new TasksRequest(
                10_000.0, null, List.of(point(1, 70), point(2, 140), point(3, 210)), 1.0, null, null, null, null));
        TasksResult.Extrapolation e = r.extrapolation();
        assertEquals(new TasksResult.Extrapolation(3, 3, 143, 143 / 3.0, true), e);
        assertTrue(
                r.assumptions()
                        .contains("extrapolates far past the measurements (3 points up to 3 tasks; 143 tasks is 47.7x"
                                + " beyond): the fitted USL assumption, not a measurement, sets that count; measure near 143 tasks before relying"
                                + " on it"),
                r.assumptions().toString());
    }

    @Test
    void upToTwiceTheMeasuredRangeIsALittlePastIt() {
        TasksResult r = TaskPrediction.predict(request(100, List.of(point(1, 10), point(2, 20))));
        // 125/s at 10/s per task: 13 tasks, 6.5x beyond 2; 30/s: 4 tasks, exactly 2x
        assertTrue(r.extrapolation().beyondLimit());
        assertTrue(
                r.assumptions().get(r.assumptions().size() - 1).contains("the linear assumption"),
                r.assumptions().toString());
        TasksResult twice = TaskPrediction.predict(request(24, List.of(point(1, 10), point(2, 20))));
        assertEquals(new TasksResult.Extrapolation(2, 2, 3, 1.5, false), twice.extrapolation());
        assertTrue(
                twice.assumptions().stream()
                        .anyMatch(a -> a.startsWith("extrapolates a little past the measurements (2 points"
                                + " up to 2 tasks; 3 tasks is 1.5x beyond)")),
                twice.assumptions().toString());
        assertNull(
                TaskPrediction.predict(request(16, List.of(point(1, 10), point(2, 20))))
                        .extrapolation(),
                "within what was measured");
        assertNull(
                TaskPrediction.predict(new TasksRequest(10_000.0, 70.0, null, null, null, null, null, null))
                        .extrapolation(),
                "a given per-task rate measured nothing");
    }

    @Test
    void noBoundOfTheSearchReachesTheAnswer() {
        // very noisy points: resamples fall to zero and refits run into λ's floor; neither may show as a figure
        java.util.Random random = new java.util.Random(7);
        for (int trial = 0; trial < 300; trial++) {
            List<Measurement> points = new ArrayList<>();
            for (int n = 1; n <= 4 + random.nextInt(5); n++) {
                points.add(point(n, TRUTH.throughput(n) * (0.3 + 1.4 * random.nextDouble())));
            }
            TasksResult r;
            try {
                r = TaskPrediction.predict(request(50 + random.nextInt(400), points));
            } catch (io.kcscale.scaler.input.InvalidInputException e) {
                assertEquals("measurements", e.field(), e.getMessage());
                continue;
            }
            assertTrue(r.usl().lambda() > 1e-6, r.toString());
            if (r.intervals() != null) {
                for (TasksResult.Interval i : java.util.Arrays.asList(
                        r.intervals().sustainedRate(), r.intervals().ceilingRate())) {
                    assertTrue(i == null || i.low() == 0 || i.low() > 1e-6, i + " in " + r);
                }
            }
            assertTrue(!r.toString().contains("E-3"), r.toString());
        }
    }

    @Test
    void theIntervalHoldsARunTheCurveAloneLeavesOut() {
        // the sweep of docs/performance.md, and a re-run of 5 tasks that sustained 1,348: outside the curve's spread,
        // inside a run's
        List<Measurement> sweep = List.of(point(1, 546), point(2, 1062), point(3, 1276), point(5, 1621));
        UniversalScalabilityLaw fit = UslFit.of(new double[] {1, 2, 3, 5}, new double[] {546, 1062, 1276, 1621})
                .law();
        double target = 0.8 * fit.throughput(5) * 0.999; // recommends exactly 5 tasks
        TasksResult r = TaskPrediction.predict(new TasksRequest(target, null, sweep, null, null, null, null, null));
        assertEquals(5, r.recommendedTasks());
        TasksResult.Interval five = r.intervals().sustainedRate();
        assertTrue(five.low() <= 1348 && 1348 <= five.high(), five.toString());
    }

    private static void assertContains(TasksResult.Interval interval) {
        assertTrue(
                interval.low() <= interval.estimate()
                        && (interval.high() == null || interval.estimate() <= interval.high()),
                interval.toString());
        assertTrue(
                interval.low() < interval.estimate()
                        || interval.high() == null
                        || interval.estimate() < interval.high(),
                "noisy points give a spread: " + interval);
    }

    private static double width(TasksResult.Interval interval) {
        return interval.high() - interval.low();
    }

    private static List<Measurement> noisy(int... tasks) {
        List<Measurement> points = new ArrayList<>();
        for (int i = 0; i < tasks.length; i++) {
            points.add(point(tasks[i], TRUTH.throughput(tasks[i]) * (1 + NOISE[i % NOISE.length])));
        }
        return points;
    }

    private static Measurement point(double tasks, double throughput) {
        return new Measurement(tasks, throughput);
    }

    private static TasksRequest request(double target, List<Measurement> measurements) {
        return new TasksRequest(target, null, measurements, null, null, null, null, null);
    }
}
