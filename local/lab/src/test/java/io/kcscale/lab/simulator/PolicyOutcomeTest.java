package io.kcscale.lab.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kcscale.vocabulary.Arrivals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark's figures from a recorded run: steadiness, peaks and task-seconds. */
class PolicyOutcomeTest {

    /** 0-100 s at 100/s, then a step to 400/s until 200 s; target 5 s: lag within 500, then 2,000. */
    private static final LoadTrace TRACE = new LoadTrace(
            List.of(new LoadPhase("1x", 100, 100, Arrivals.STEADY), new LoadPhase("4x", 100, 400, Arrivals.STEADY)));

    /** A point every 10 s with the given lags. */
    private static List<Timeline.Point> points(long... lags) {
        List<Timeline.Point> points = new ArrayList<>();
        for (int i = 0; i < lags.length; i++) {
            points.add(new Timeline.Point(
                    i * 10, i * 10 < 100 ? 100 : 400, null, 100.0, 100.0, lags[i], 1, lags[i] / 100.0, null));
        }
        return points;
    }

    @Test
    void steadyStartsAtTheSampleAfterTheLastLagAboveTargetAndAfterTheLastAction() {
        long[] lags = new long[20];
        Arrays.fill(lags, 0);
        lags[11] = 9_000;
        lags[12] = 2_500;
        Timeline run = new Timeline("p", 1, 200, points(lags), List.of(new ScalingAction(112, 1, 5, "lag", "up", 0.3)));
        PolicyOutcome o = PolicyOutcome.of(run, TRACE, 5, 30);
        assertEquals(List.of(1), o.actionsPerStep());
        assertEquals(
                List.of(30.0), o.secondsToSteady(), "lag above 2,000 until the sample at 120 s, steady from 130 s");
        assertEquals(9_000, o.peakLag());
        assertEquals(90.0, o.peakLatencySeconds());
        assertEquals(1 * 112 + 5 * 88, o.taskSeconds(), 1e-9);
    }

    @Test
    void anActionLateInTheStepLeavesItNeverSteady() {
        Timeline run = new Timeline(
                "p", 1, 200, points(new long[20]), List.of(new ScalingAction(180, 1, 2, "lag", "late", 0.3)));
        List<Double> toSteady = PolicyOutcome.of(run, TRACE, 5, 30).secondsToSteady();
        assertEquals(1, toSteady.size());
        assertNull(toSteady.get(0), "steady needs a whole window without action before the next step");
    }
}
