package io.kcscale.lab.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.vocabulary.Arrivals;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The simulated pipeline's physics: conservation, determinism, pauses, keys, assignment and the sink's ceiling. */
class SimulationTest {

    private static final SimulationSettings DEFAULTS =
            SimulationSettings.builder().build();
    private static final ScheduledRule FIXED = new ScheduledRule(Map.of(), 1_000);

    private static LoadTrace oneRate(double rate, double seconds, Arrivals arrivals) {
        return new LoadTrace(List.of(new LoadPhase("one rate", seconds, rate, arrivals)));
    }

    @Test
    void recordsInEqualRecordsOutPlusLagThroughRebalancesAndPoissonNoise() {
        Simulation sim = new Simulation(LoadTrace.standard(2600), DEFAULTS);
        Timeline run = sim.run(BenchmarkPolicies.forTarget(2600, 5, 20, 2_000).ours());
        assertTrue(
                run.actions().size() >= 2, "the run must rebalance to test conservation across it: " + run.actions());
        SimulatedPipeline p = sim.pipeline();
        long[] end = p.endOffsets();
        long[] polled = p.polledOffsets();
        long[] committed = p.committedOffsets();
        for (int i = 0; i < end.length; i++) {
            assertTrue(
                    committed[i] <= polled[i] && polled[i] <= end[i],
                    "partition " + i + ": committed " + committed[i] + " <= polled " + polled[i] + " <= end " + end[i]);
        }
        assertEquals(sim.recordsIn(), sim.recordsOut() + sim.backlog());
        // steady phases are exact; the Poisson phase (780,000 expected) within 5 standard deviations
        double expected = 2600 * 120 + 10_400 * 300 + 2600 * 300 + 2600 * 300;
        assertEquals(expected, sim.recordsIn(), 5 * Math.sqrt(2600 * 300), "records appended");
    }

    @Test
    void theSameSeedGivesTheSameRunAndAnotherSeedAnotherLoad() {
        LoadTrace trace = oneRate(2000, 120, Arrivals.POISSON);
        SimulationSettings seven = DEFAULTS.toBuilder().seed(7).build();
        Timeline a = new Simulation(trace, seven).run(FIXED);
        Timeline b = new Simulation(trace, seven).run(FIXED);
        Timeline other = new Simulation(trace, seven.toBuilder().seed(8).build()).run(FIXED);
        assertEquals(a, b);
        assertNotEquals(a.points(), other.points());
    }

    @Test
    void aRebalancePauseStopsConsumptionForItsLength() {
        // 3 tasks saturated by 20,000/s; one change at 10 s; a 5 s pause leaves 5 s of their writes undone
        LoadTrace trace = oneRate(20_000, 30, Arrivals.STEADY);
        ScheduledRule scale = new ScheduledRule(Map.of(10_000L, 3), 1_000);
        SimulationSettings three = DEFAULTS.toBuilder().initialTasks(2).build();
        Simulation quick =
                new Simulation(trace, three.toBuilder().rebalancePauseSeconds(0).build());
        quick.run(scale);
        Simulation paused =
                new Simulation(trace, three.toBuilder().rebalancePauseSeconds(5).build());
        paused.run(scale);
        assertEquals(5 * 3 * 2600, quick.recordsOut() - paused.recordsOut(), 2600 * 0.01);
    }

    @Test
    void aRebalanceWaitsForTheBatchesInFlight() {
        // a slow task (40/s) holds up to 500 records: 12.5 s of writes the group must wait for
        SimulationSettings slow = DEFAULTS.toBuilder()
                .partitions(4)
                .perTaskRate(40)
                .rebalancePauseSeconds(0.3)
                .build();
        SimulatedPipeline p = new SimulatedPipeline(slow);
        long[] arrivals = {5, 5, 5, 5};
        long now = 0;
        for (; now < 20_000; now += 100) {
            p.arrive(arrivals);
            p.consume(now, 0.1);
        }
        long writtenAtScale = p.written();
        long committedLagAtScale = p.committedLag();
        p.scaleTo(4, now);
        long scaledAt = now;
        while (p.sample(now).assignment().isEmpty()) {
            p.arrive(arrivals);
            p.consume(now, 0.1);
            now += 100;
        }
        double stalled = (now - scaledAt) / 1000.0;
        assertTrue(stalled > 1 && stalled <= 12.5 + 0.3 + 0.2, "the group waited " + stalled + " s");
        long wrote = p.written() - writtenAtScale;
        assertTrue(
                wrote >= (stalled - 0.5) * 40,
                "the old task kept writing its batch: " + wrote + " in " + stalled + " s");
        assertTrue(
                p.committedLag() < committedLagAtScale + stalled * 200,
                "its batch was committed as the group rebalanced");

        // then the first new task, alone with every partition, writes a whole batch before the other three join
        assertEquals(Set.of(0), Set.copyOf(p.sample(now).assignment().values()));
        long aloneFrom = now;
        while (Set.copyOf(p.sample(now).assignment().values()).size() < 4) {
            p.arrive(arrivals);
            p.consume(now, 0.1);
            now += 100;
        }
        assertEquals(500 / 40.0, (now - aloneFrom) / 1000.0, 0.3, "one batch of 500 at 40/s");
    }

    @Test
    void twoKeysFeedAtMostTwoPartitionsSoAThirdTaskStarves() {
        // the classic trap: keyed by a field with two values, three tasks deliver at most what two do
        SimulationSettings twoKeys = DEFAULTS.toBuilder()
                .keyCardinality(2)
                .initialTasks(3)
                .partitions(3)
                .build();
        Timeline run = new Simulation(oneRate(20_000, 60, Arrivals.STEADY), twoKeys).run(FIXED);
        double sinkRate = run.points().get(run.points().size() - 1).sinkRate();
        assertTrue(sinkRate <= 2 * 2600 * 1.01, "3 tasks, 2 keys: " + sinkRate + "/s");
    }

    @Test
    void oneHotKeyPinsItsPartitionAndItsTask() {
        double[] weights = KeySpace.partitionWeights(20, 1000, 1.2, 1);
        double hottest = Arrays.stream(weights).max().orElseThrow();
        assertTrue(
                hottest > 0.2,
                "Zipf 1.2 over 1,000 keys puts over a fifth of the records in one partition: " + hottest);
        assertEquals(1.0, Arrays.stream(weights).sum(), 1e-9);
    }

    @Test
    void tasksShareTheSinksCeiling() {
        SimulationSettings capped =
                DEFAULTS.toBuilder().initialTasks(10).sinkCeiling(5000).build();
        Timeline run = new Simulation(oneRate(20_000, 60, Arrivals.STEADY), capped).run(FIXED);
        Timeline.Point last = run.points().get(run.points().size() - 1);
        assertEquals(5000, last.sinkRate(), 50, "ten tasks that could write 26,000/s get 5,000/s");
    }

    @Test
    void rangeAssignmentGivesContiguousRangesAsTheLiveGroupShows() {
        // as `kcscale status` shows for 20 partitions and 3 tasks: 0-6, 7-13, 14-19
        int[] range = Assignor.RANGE.assign(20, 3);
        assertEquals(0, range[6]);
        assertEquals(1, range[7]);
        assertEquals(1, range[13]);
        assertEquals(2, range[14]);
        assertEquals(2, range[19]);
        int[] roundRobin = Assignor.ROUND_ROBIN.assign(20, 3);
        assertEquals(List.of(0, 1, 2, 0), List.of(roundRobin[0], roundRobin[1], roundRobin[2], roundRobin[3]));
        int[] moreTasks = Assignor.RANGE.assign(2, 5);
        assertEquals(List.of(0, 1), List.of(moreTasks[0], moreTasks[1]), "tasks beyond the partitions get none");
    }

    @Test
    void poissonCountsHaveTheirMeanAsVariance() {
        PoissonSampler sampler = new PoissonSampler(new SplittableRandom(1));
        for (double mean : new double[] {0.3, 4, 1000}) {
            int n = 200_000;
            double sum = 0;
            double squares = 0;
            for (int i = 0; i < n; i++) {
                long k = sampler.sample(mean);
                sum += k;
                squares += (double) k * k;
            }
            double m = sum / n;
            double variance = squares / n - m * m;
            assertEquals(mean, m, 4 * Math.sqrt(mean / n), "mean at " + mean);
            assertEquals(mean, variance, mean * 0.03, "variance at " + mean);
        }
    }

    @Test
    void badSettingsNameTheSetting() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> DEFAULTS.toBuilder().windowSeconds(3).build());
        assertTrue(e.getMessage().startsWith("windowSeconds"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> DEFAULTS.toBuilder().perTaskRate(0).build());
        assertThrows(IllegalArgumentException.class, () -> new LoadPhase("x", 10, -1, Arrivals.STEADY));
        assertThrows(IllegalArgumentException.class, () -> new LoadPhase("x", 10, 1, Arrivals.BURSTS));
    }
}
