package io.kcscale.scaler.act;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Every rule that refuses a scale, in order, and every warning. */
class ScaleRulesTest {

    /** A stable sink with 2 tasks on 4 partitions, at most 8 tasks. */
    private static ScaleRules.Facts facts(boolean sink, Integer partitions, boolean stable) {
        return new ScaleRules.Facts("s", sink, 2, partitions, 8, stable, List.of("lag grows", "a task restarted"));
    }

    private static final ScaleRules.Facts SINK = facts(true, 4, true);

    @Test
    void aSourceIsRefusedFirst() {
        assertEquals(Optional.of("s is not a sink connector: the scaler changes sink tasks only"),
                ScaleRules.refusal(0, true, facts(false, 4, true)));
    }

    @Test
    void fewerThanOneTaskIsRefused() {
        assertEquals(Optional.of("tasks must be at least 1, got 0"), ScaleRules.refusal(0, true, SINK));
        assertEquals(Optional.of("tasks must be at least 1, got -3"), ScaleRules.refusal(-3, false, SINK));
    }

    @Test
    void moreThanTheMaximumIsRefusedEvenWithIdleTasksAllowed() {
        assertEquals(Optional.of("tasks 9 is above the configured maximum of 8 (the scaler's --max-tasks)"),
                ScaleRules.refusal(9, true, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(8, true, SINK));
    }

    @Test
    void anUnknownPartitionCountIsRefusedUnlessIdleTasksAreAllowed() {
        ScaleRules.Facts unknown = facts(true, null, true);
        assertEquals(Optional.of("the partition count is unknown (Kafka did not answer), so tasks beyond it cannot be ruled out;"
                + " retry, or pass allowIdleTasks"), ScaleRules.refusal(3, false, unknown));
        assertEquals(Optional.empty(), ScaleRules.refusal(3, true, unknown));
    }

    @Test
    void tasksBeyondThePartitionsAreRefusedUnlessIdleTasksAreAllowed() {
        assertEquals(Optional.of("tasks 6 is above the 4 partitions of the topic: 2 task(s) would sit idle;"
                + " add partitions first, or pass allowIdleTasks"), ScaleRules.refusal(6, false, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(6, true, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(4, false, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(1, false, SINK));
    }

    @Test
    void aScaleWithinTheRulesOfAStablePipelineHasNoWarnings() {
        assertEquals(List.of(), ScaleRules.warnings(3, SINK));
        assertEquals(List.of(), ScaleRules.warnings(3, facts(true, null, true)), "an unknown partition count is no warning");
    }

    @Test
    void theWarningsSayWhatTheCallerShouldKnow() {
        assertEquals(List.of("tasks.max is already 2: nothing to change"), ScaleRules.warnings(2, SINK));
        assertEquals(List.of("2 task(s) will have no partition to consume"), ScaleRules.warnings(6, SINK));
        assertEquals(List.of("the pipeline was not stable before the change (lag grows; a task restarted): scaling can hide the cause"),
                ScaleRules.warnings(3, facts(true, 4, false)));
        assertEquals(3, ScaleRules.warnings(2, new ScaleRules.Facts("s", true, 2, 1, 8, false, List.of("x"))).size(),
                "all that apply, together");
    }
}
