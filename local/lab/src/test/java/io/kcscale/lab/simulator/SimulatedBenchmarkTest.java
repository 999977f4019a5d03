package io.kcscale.lab.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.vocabulary.Arrivals;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Both policies on the simulator: the goals on the standard trace, no flapping, and speed. */
class SimulatedBenchmarkTest {

    private static final SimulationSettings DEFAULTS =
            SimulationSettings.builder().build();
    private static final BenchmarkPolicies POLICIES = BenchmarkPolicies.forTarget(2600, 5, 20, 2_000);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void oursTakesOneActionPerStepWithAtMostHalfThePeakLagAndNoMoreTaskSeconds(long seed) {
        BenchmarkReport r = AutoscaleBenchmark.simulate(
                LoadTrace.standard(2600), DEFAULTS.toBuilder().seed(seed).build(), POLICIES);
        PolicyOutcome ours = r.policies().get(BenchmarkReport.OURS);
        PolicyOutcome baseline = r.policies().get(BenchmarkReport.BASELINE);
        String table = BenchmarkTable.render(r) + BenchmarkTable.actions(r);
        assertTrue(r.goals().met(), table);
        assertEquals(List.of(1, 1, 0), ours.actionsPerStep(), "up at 4x, down at 1x, nothing for noise\n" + table);
        assertTrue(ours.secondsToSteady().stream().allMatch(s -> s != null), table);
        assertTrue(ours.secondsToSteady().get(0) < 10, "steady within seconds of the step to 4x\n" + table);
        assertTrue(baseline.peakLag() > 2 * ours.peakLag(), table);
    }

    @Test
    void theBaselinesThresholdIsTheLagOneTaskDrainsWithinTheTarget() {
        assertEquals(13_000, POLICIES.lagThreshold());
        BenchmarkReport r = AutoscaleBenchmark.simulate(LoadTrace.standard(2600), DEFAULTS, POLICIES);
        assertTrue(
                BenchmarkTable.render(r)
                        .contains("baseline lag threshold 13,000 records: the lag one task (2600 records/s) "
                                + "drains within the 5.0 s target"),
                BenchmarkTable.render(r));
    }

    @ParameterizedTest(name = "{0} tasks at {1}/s")
    @CsvSource({"1, 2600", "2, 2600", "5, 10400", "3, 1000"})
    void tenMinutesOfSteadyPoissonLoadOursTakesNoAction(int tasks, double rate) {
        LoadTrace oneRate = new LoadTrace(List.of(new LoadPhase("one rate", 600, rate, Arrivals.POISSON)));
        SimulationSettings settings = DEFAULTS.toBuilder().initialTasks(tasks).build();
        Timeline run = new Simulation(oneRate, settings).run(POLICIES.ours());
        assertEquals(List.of(), run.actions());
    }

    @Test
    void onceSizedForAStepTenMinutesOfNoisyLoadBringNoFurtherAction() {
        // the policy learns its per-task capacity under the step's backlog, then must sit still
        LoadTrace stepThenNoise = new LoadTrace(List.of(
                new LoadPhase("1x", 60, 2600, Arrivals.STEADY),
                new LoadPhase("4x", 60, 10_400, Arrivals.STEADY),
                new LoadPhase("4x poisson", 600, 10_400, Arrivals.POISSON)));
        Timeline run = new Simulation(stepThenNoise, DEFAULTS).run(POLICIES.ours());
        assertEquals(1, run.actions().size(), run.actions().toString());
        assertEquals(5, run.actions().get(0).toTasks(), run.actions().toString());
    }

    @Test
    void aSaturatedSinkGetsOneScaleUpWhileTheBaselineClimbsToItsCap() {
        SimulationSettings saturating =
                DEFAULTS.toBuilder().sinkCeiling(1.5 * 2600).build();
        BenchmarkReport r = AutoscaleBenchmark.simulate(LoadTrace.standard(2600), saturating, POLICIES);
        PolicyOutcome ours = r.policies().get(BenchmarkReport.OURS);
        PolicyOutcome baseline = r.policies().get(BenchmarkReport.BASELINE);
        assertEquals(1, ours.actions().size(), BenchmarkTable.actions(r));
        assertEquals(20, baseline.actions().get(baseline.actions().size() - 1).toTasks(), BenchmarkTable.actions(r));
        assertTrue(ours.taskSeconds() < baseline.taskSeconds() / 2, BenchmarkTable.render(r));
    }

    @Test
    void tenThousandRecordsPerSecondOver150TasksSimulateTenMinutesInSeconds() {
        // the field report's sizing: 70/s per task, 10,000/s -> 143 tasks; many keys so no partition runs hot
        SimulationSettings big = DEFAULTS.toBuilder()
                .partitions(150)
                .initialTasks(150)
                .perTaskRate(70)
                .keyCardinality(1_000_000)
                .sinkCeiling(1e9)
                .build();
        LoadTrace tenMinutes = new LoadTrace(List.of(new LoadPhase("10k", 600, 10_000, Arrivals.POISSON)));
        ScalingRule ours = BenchmarkPolicies.forTarget(70, 5, 150, 2_000).ours();
        // CPU time, not wall time: the claim is the simulator's cost, which a machine shared with builds would blur
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long start = cpu.getCurrentThreadCpuTime();
        Simulation sim = new Simulation(tenMinutes, big);
        Timeline run = sim.run(ours);
        double seconds = (cpu.getCurrentThreadCpuTime() - start) / 1e9;
        assertTrue(seconds < 5, "10 simulated minutes took " + seconds + " s of CPU");
        assertEquals(6_000_000, sim.recordsIn(), 5 * Math.sqrt(6_000_000));
        assertEquals(sim.recordsIn(), sim.recordsOut() + sim.backlog());
        Timeline.Point last = run.points().get(run.points().size() - 1);
        assertEquals(10_000, last.sinkRate(), 300, "150 tasks at 70/s keep up with 10,000/s");
    }
}
