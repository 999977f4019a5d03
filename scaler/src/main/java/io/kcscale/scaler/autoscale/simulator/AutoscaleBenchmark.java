package io.kcscale.scaler.autoscale.simulator;

import java.util.List;

import io.kcscale.scaler.autoscale.ScalingPolicy;

/** The side-by-side benchmark on the simulator: the same trace, settings and seed through each policy. */
public final class AutoscaleBenchmark {

    private AutoscaleBenchmark() {
    }

    public static BenchmarkReport simulate(LoadTrace trace, SimulationSettings settings, BenchmarkPolicies policies) {
        List<Timeline> runs = policies.create().stream().map(p -> run(p, trace, settings)).toList();
        return BenchmarkReport.of("simulated", settings.seed(), trace, policies, settings.perTaskRate(), runs,
                settings.windowSeconds());
    }

    private static Timeline run(ScalingPolicy policy, LoadTrace trace, SimulationSettings settings) {
        return new Simulation(trace, settings).run(policy);
    }
}
