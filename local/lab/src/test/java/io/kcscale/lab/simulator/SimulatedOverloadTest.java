package io.kcscale.lab.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import io.kcscale.vocabulary.Arrivals;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seeds' own regime: one per-record task behind a remote cluster (~70 records/s) under 200 records/s into 20
 * partitions. A saturated task drains its partitions a fetch at a time, so in any 30 s most of them do not move; the
 * autoscaler must read that as load and scale, at the lab's 1 s commits and at Connect's default 60 s.
 */
class SimulatedOverloadTest {

    private static final long[] ONE_EACH = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

    private static final SimulationSettings.Builder SLOW_SINK = SimulationSettings.builder()
            .partitions(20)
            .perTaskRate(70)
            .sinkCeiling(10_000)
            .initialTasks(1);

    @ParameterizedTest(name = "commits every {0} s")
    @ValueSource(doubles = {1, 60})
    void anOverloadedTaskWithManyPartitionsIsScaledAndTheLagFallsBelowTarget(double commitSeconds) {
        LoadTrace load = new LoadTrace(List.of(new LoadPhase("200/s", 900, 200, Arrivals.POISSON)));
        Simulation sim = new Simulation(
                load, SLOW_SINK.commitIntervalSeconds(commitSeconds).build());
        Timeline run = sim.run(ScalingRules.create(
                ScalingRules.KCSCALE,
                new AutoscalePolicy(1, 6, null, 1_500L, null, null, null, null, null, null),
                5_000));

        ScalingAction first = run.actions().get(0);
        assertTrue(first.toTasks() >= 3, "one step to enough tasks: " + run.actions());
        assertTrue(first.atSeconds() <= 180, "within 3 minutes: " + run.actions());
        assertEquals("lag", first.code(), first.reason());
        List<Timeline.Point> after = run.points().stream()
                .filter(p -> p.atSeconds() > first.atSeconds() + 300)
                .toList();
        assertTrue(
                after.stream().allMatch(p -> p.lag() < 1_500 + 200 * commitSeconds),
                "the lag (committed: up to one commit interval of records above what waits) falls below target: "
                        + after.stream().mapToLong(Timeline.Point::lag).max().orElse(-1));
        assertEquals(sim.recordsIn(), sim.recordsOut() + sim.backlog(), "no record lost");
    }

    @ParameterizedTest(name = "commits every {0} s")
    @ValueSource(doubles = {1, 60})
    void aSaturatedTaskLeavesMostOfItsPartitionsUnmovedWithinAWindow(double commitSeconds) {
        // what the simulator must model for the test above to mean anything: the drain a fetch at a time
        LoadTrace load = new LoadTrace(List.of(new LoadPhase("200/s", 300, 200, Arrivals.STEADY)));
        Simulation sim = new Simulation(
                load, SLOW_SINK.commitIntervalSeconds(commitSeconds).build());
        long[] before = null;
        int windows = 0;
        int mostlyUnmoved = 0;
        for (long at = 0; at < 300_000; at += 100) {
            // 10 records/s into each of the 20 partitions
            sim.pipeline().arrive(ONE_EACH.clone());
            sim.pipeline().consume(at, 0.1);
            if (at % 30_000 == 0 && at >= 120_000) {
                long[] now = sim.pipeline().polledOffsets();
                if (before != null) {
                    int moved = 0;
                    for (int p = 0; p < now.length; p++) {
                        moved += now[p] > before[p] ? 1 : 0;
                    }
                    windows++;
                    mostlyUnmoved += moved <= 10 ? 1 : 0;
                }
                before = now;
            }
        }
        assertTrue(windows >= 5);
        assertEquals(windows, mostlyUnmoved, "a 30 s window in which at most half of the partitions moved, each time");
    }
}
