package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Every check, in the order a report lists them: keys and partitions first, then the index, then the group and its workers. */
public final class Checks {

    public static final List<Check> ALL = List.of(
            new KeyCardinalityCheck(),
            new PartitionSkewCheck(),
            new IdleTasksCheck(),
            new PartitionCountCheck(),
            new IndexShardsCheck(),
            new DuplicateSinkCheck(),
            new RebalanceConfigCheck(),
            new WorkerCapacityCheck(),
            new DeadLetterCheck(),
            new StabilityCheck());

    private Checks() {}

    /** Each check's finding, in their order. */
    public static CheckReport run(List<Check> checks, PipelineSnapshot snapshot, CheckSamples samples) {
        return CheckReport.of(
                snapshot.name(),
                samples.tasksWanted(),
                checks.stream().map(c -> c.check(snapshot, samples)).toList());
    }

    /** What the checks read beyond the snapshot, together. */
    public static Set<CheckInput> needs(List<Check> checks) {
        Set<CheckInput> needs = EnumSet.noneOf(CheckInput.class);
        checks.forEach(c -> needs.addAll(c.needs()));
        return needs;
    }
}
