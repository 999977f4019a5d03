package io.kcscale.lab.simulator;

import java.util.List;

/** The side-by-side benchmark on the simulator: the same trace, settings and seed through each policy. */
public final class AutoscaleBenchmark {

    private AutoscaleBenchmark() {}

    /**
     * Each policy's run, ours first. The simulated workers publish each task's busy time and read rate, so every rule
     * sees the busy fraction and capacity the scaler derives from them, as on the live pipeline.
     */
    public static List<Timeline> runs(LoadTrace trace, SimulationSettings settings, BenchmarkPolicies policies) {
        return policies.create(trace.durationSeconds()).stream()
                .map(p -> new Simulation(trace, settings).run(p))
                .toList();
    }

    public static BenchmarkReport simulate(LoadTrace trace, SimulationSettings settings, BenchmarkPolicies policies) {
        return BenchmarkReport.of(
                "simulated",
                settings.seed(),
                trace,
                policies,
                settings.perTaskRate(),
                runs(trace, settings, policies),
                settings.windowSeconds());
    }
}
