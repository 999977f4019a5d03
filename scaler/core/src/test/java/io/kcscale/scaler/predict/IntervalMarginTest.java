package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.input.InvalidInputException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code intervalMargin}: each prediction interval widened on both sides by a share of its estimate. */
class IntervalMarginTest {

    /** The sweep of docs/performance.md: a ceiling, and a recommended count for 1,300/s. */
    private static final List<Measurement> SWEEP = List.of(
            new Measurement(1.0, 546.0),
            new Measurement(2.0, 1062.0),
            new Measurement(3.0, 1276.0),
            new Measurement(5.0, 1621.0));

    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.04, 0.1, 0.5, 1})
    void eachRateIntervalIsWidenedByExactlyTheMarginTimesItsEstimateOnEachSide(double margin) {
        TasksResult.Intervals bare = predict(1300, 0.0).intervals();
        TasksResult.Intervals widened = predict(1300, margin).intervals();
        assertEquals(margin, widened.margin());
        assertWidened(bare.sustainedRate(), widened.sustainedRate(), margin);
        assertWidened(bare.ceilingRate(), widened.ceilingRate(), margin);
        int tasks = predict(1300, margin).recommendedTasks();
        assertEquals(
                widened.sustainedRate(),
                TaskPrediction.rateInterval(SWEEP, tasks, margin).orElseThrow(),
                "the lab's check asks for the interval predict tasks gives");
    }

    @Test
    void noMarginLeavesTheBareBootstrapAndNoneGivenIsTheDefault() {
        TasksResult.Intervals bare = predict(1300, 0.0).intervals();
        assertEquals(0, bare.margin());
        // the bare interval holds the estimate but reaches no further than the bootstrap's own tails
        TasksResult.Interval sustained = bare.sustainedRate();
        assertTrue(
                sustained.low() <= sustained.estimate() && sustained.estimate() <= sustained.high(),
                sustained.toString());
        assertEquals(
                TaskPrediction.rateInterval(SWEEP, predict(1300, 0.0).recommendedTasks(), 0)
                        .orElseThrow(),
                sustained);
        assertEquals(predict(1300, TaskPrediction.DEFAULT_INTERVAL_MARGIN), predict(1300, null));
        assertEquals(0.04, predict(1300, null).intervals().margin());
    }

    @ParameterizedTest
    @CsvSource({"500, 0.04", "1300, 0.04", "1300, 0.2", "1500, 0.1", "2500, 0.04", "2500, 0.5"})
    void theTaskCountIntervalIsNeverNarrowerWithAMargin(double target, double margin) {
        TasksResult.TaskInterval bare = predict(target, 0.0).intervals().recommendedTasks();
        TasksResult.TaskInterval widened = predict(target, margin).intervals().recommendedTasks();
        assertEquals(bare.estimate(), widened.estimate());
        assertTrue(
                bare.low() == null || (widened.low() != null && widened.low() <= bare.low()), bare + " -> " + widened);
        assertTrue(
                widened.high() == null || (bare.high() != null && widened.high() >= bare.high()),
                bare + " -> " + widened);
    }

    @Test
    void aWideMarginReachesFewerTasksBelowAndMoreAbove() {
        TasksResult.TaskInterval bare = predict(1300, 0.0).intervals().recommendedTasks();
        TasksResult.TaskInterval widened = predict(1300, 0.3).intervals().recommendedTasks();
        assertTrue(widened.low() < bare.low(), bare + " -> " + widened);
        assertTrue(widened.high() == null || widened.high() > bare.high(), bare + " -> " + widened);
    }

    @ParameterizedTest
    @CsvSource({"-0.01", "1.5", "4", "NaN", "Infinity"})
    void aMarginOutsideZeroToOneIsRefusedByItsName(double margin) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> predict(1300, margin));
        assertEquals("intervalMargin", e.field());
        assertTrue(
                e.getMessage().startsWith("intervalMargin must be a share from 0 to 1 (0.04 is 4%)")
                        || e.getMessage().startsWith("intervalMargin must be a finite number"),
                e.getMessage());
    }

    @Test
    void aMarginWithoutMeasurementsIsRefused() {
        InvalidInputException e = assertThrows(
                InvalidInputException.class,
                () -> TaskPrediction.predict(
                        new TasksRequest(1300.0, 70.0, null, null, null, null, null, null, 0.04, null)));
        assertEquals(
                "intervalMargin applies only with measurements: intervals come from measured points", e.getMessage());
    }

    private static void assertWidened(TasksResult.Interval bare, TasksResult.Interval widened, double margin) {
        double by = margin * bare.estimate();
        assertEquals(bare.estimate(), widened.estimate());
        assertEquals(Math.max(0, bare.low() - by), widened.low(), 1e-9 * bare.estimate(), widened.toString());
        if (bare.high() == null) {
            assertNull(widened.high(), "open above stays open");
        } else {
            assertEquals(bare.high() + by, widened.high(), 1e-9 * bare.estimate(), widened.toString());
        }
    }

    private static TasksResult predict(double target, Double margin) {
        return TaskPrediction.predict(
                new TasksRequest(target, null, SWEEP, null, null, null, null, null, margin, null));
    }
}
