package io.kcscale.lab.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.autoscale.rules.FlinkRule;
import io.kcscale.scaler.autoscale.rules.ScalingRules;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every rule over a trace shape on the simulator: all of them run, and each peer keeps its own timing. */
class TraceComparisonTest {

    private static final BenchmarkPolicies POLICIES = BenchmarkPolicies.forTarget(2600, 5, 20, 2_000);

    @Test
    void everyRuleRunsEverySeedAndTheTableSaysWhatWasScaled() {
        TraceComparison.Outcome o = TraceComparison.simulate(
                TraceShape.SPIKE, SimulationSettings.builder().build(), POLICIES, List.of(1L, 2L));
        TraceComparison c = o.comparison();
        assertEquals(
                ScalingRules.NAMES,
                c.rows().stream().map(TraceComparison.Row::rule).toList());
        assertEquals(2 * ScalingRules.NAMES.size(), o.runs().size());
        c.rows().forEach(r -> assertEquals(2, r.perSeed().size()));
        String table = c.render();
        assertTrue(
                table.contains(
                        "| rule | actions | peak lag | peak age | over target | task-seconds | rebalance pause |"),
                table);
        // Flink's hour-long scale-down interval cannot fit twice in 30 minutes: its constants run a quarter as long
        assertTrue(table.contains("flink x0.250"), table);
        assertEquals(0.25, c.timeScales().get(FlinkRule.NAME));
        assertEquals(1.0, c.timeScales().get(ScalingRules.KCSCALE));
    }

    @Test
    void flinkActsOnlyOnceItsScaledWindowIsFull() {
        TraceComparison.Outcome o = TraceComparison.simulate(
                TraceShape.STEP, SimulationSettings.builder().build(), POLICIES, List.of(3L));
        Timeline flink = o.runs().get("step-seed3-flink");
        assertTrue(!flink.actions().isEmpty(), "with the busy fraction modelled, Flink sizes the step");
        // a quarter of 15 minutes' window, from the start of the run
        assertTrue(flink.actions().get(0).atSeconds() >= 225, flink.actions().toString());
        Timeline ours = o.runs().get("step-seed3-kcscale");
        assertTrue(ours.actions().get(0).atSeconds() < 140, "ours within seconds of the step at 120 s");
    }
}
