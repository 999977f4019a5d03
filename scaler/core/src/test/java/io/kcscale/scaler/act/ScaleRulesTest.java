package io.kcscale.scaler.act;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.scaler.model.WorkerLoss;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every rule that refuses a scale, in order, and every warning. */
class ScaleRulesTest {

    /** A stable sink with 2 tasks on 4 partitions, at most 8 tasks. */
    private static ScaleRules.Facts facts(boolean sink, Integer partitions, boolean stable) {
        return new ScaleRules.Facts(
                "s", sink, 2, partitions, 8, stable, List.of("lag grows", "a task restarted"), WorkerLoss.NONE, null);
    }

    private static final ScaleRules.Facts SINK = facts(true, 4, true);

    @Test
    void aSourceIsRefusedFirst() {
        assertEquals(
                Optional.of("s is not a sink connector: the scaler changes sink tasks only"),
                ScaleRules.refusal(0, true, false, facts(false, 4, true)));
    }

    @Test
    void fewerThanOneTaskIsRefused() {
        assertEquals(Optional.of("tasks must be at least 1, got 0"), ScaleRules.refusal(0, true, false, SINK));
        assertEquals(Optional.of("tasks must be at least 1, got -3"), ScaleRules.refusal(-3, false, false, SINK));
    }

    @Test
    void moreThanTheTaskCapIsRefusedEvenWithIdleTasksAllowed() {
        assertEquals(
                Optional.of("tasks 9 is above the task cap of 8 (the scaler's --task-cap)"),
                ScaleRules.refusal(9, true, false, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(8, true, false, SINK));
    }

    @Test
    void anUnknownPartitionCountIsRefusedUnlessIdleTasksAreAllowed() {
        ScaleRules.Facts unknown = facts(true, null, true);
        assertEquals(
                Optional.of(
                        "the partition count is unknown (Kafka did not answer), so tasks beyond it cannot be ruled out;"
                                + " retry, or pass allowIdleTasks"),
                ScaleRules.refusal(3, false, false, unknown));
        assertEquals(Optional.empty(), ScaleRules.refusal(3, true, false, unknown));
    }

    @Test
    void tasksBeyondThePartitionsAreRefusedUnlessIdleTasksAreAllowed() {
        assertEquals(
                Optional.of("tasks 6 is above the 4 partitions of the topic: 2 task(s) would sit idle;"
                        + " add partitions first, or pass allowIdleTasks"),
                ScaleRules.refusal(6, false, false, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(6, true, false, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(4, false, false, SINK));
        assertEquals(Optional.empty(), ScaleRules.refusal(1, false, false, SINK));
    }

    @Test
    void aLostWorkerRefusesAnyChangeUnlessForced() {
        ScaleRules.Facts lost = new ScaleRules.Facts(
                "s",
                true,
                2,
                4,
                8,
                false,
                List.of("worker gone"),
                new WorkerLoss(Map.of("w1:8083", 14L), Map.of("w1:8083", List.of(1))),
                null);
        String refusal =
                "worker w1:8083 has not answered for 14 s (tasks [1] on it): Connect has not given its tasks to the"
                        + " live workers yet, so they are not running and a scale would wait on them; scale once status shows every task"
                        + " RUNNING on a worker that answers, or pass force to scale anyway";
        assertEquals(Optional.of(refusal), ScaleRules.refusal(3, false, false, lost), "up");
        assertEquals(Optional.of(refusal), ScaleRules.refusal(1, false, false, lost), "down");
        assertEquals(Optional.empty(), ScaleRules.refusal(3, false, true, lost), "forced");
        assertEquals(
                Optional.empty(), ScaleRules.refusal(2, false, false, lost), "the count it has: nothing is written");
        assertEquals(
                Optional.of("tasks must be at least 1, got 0"),
                ScaleRules.refusal(0, false, true, lost),
                "force does not lift the other rules");
    }

    @Test
    void aScaleWithinTheRulesOfAStablePipelineHasNoWarnings() {
        assertEquals(List.of(), ScaleRules.warnings(3, SINK));
        assertEquals(
                List.of(), ScaleRules.warnings(3, facts(true, null, true)), "an unknown partition count is no warning");
    }

    @Test
    void theWarningsSayWhatTheCallerShouldKnow() {
        assertEquals(List.of("tasks.max is already 2: nothing to change"), ScaleRules.warnings(2, SINK));
        assertEquals(List.of("2 task(s) will have no partition to consume"), ScaleRules.warnings(6, SINK));
        assertEquals(
                List.of(
                        "the pipeline was not stable before the change (lag grows; a task restarted): scaling can hide the cause"),
                ScaleRules.warnings(3, facts(true, 4, false)));
        assertEquals(
                3,
                ScaleRules.warnings(
                                2, new ScaleRules.Facts("s", true, 2, 1, 8, false, List.of("x"), WorkerLoss.NONE, null))
                        .size(),
                "all that apply, together");
    }

    @Test
    void aSinkOfSeveralTopicsIsBoundByTheTasksItsAssignorCanGivePartitionsAndSaysHow() {
        ScaleRules.Facts threeTopics = new ScaleRules.Facts(
                "s",
                true,
                3,
                12,
                100,
                true,
                List.of(),
                WorkerLoss.NONE,
                "range assignment assigns each of the 3 topics on its own");
        assertEquals(
                Optional.of(
                        "tasks 13 is above the 12 tasks that can get a partition (range assignment assigns each of the 3"
                                + " topics on its own): 1 task(s) would sit idle; add partitions first, or pass allowIdleTasks"),
                ScaleRules.refusal(13, false, false, threeTopics));
        assertEquals(Optional.empty(), ScaleRules.refusal(12, false, false, threeTopics));
        assertEquals(Optional.empty(), ScaleRules.refusal(13, true, false, threeTopics), "idle tasks allowed");
    }
}
