package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.List;

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

    public static CheckReport run(PipelineSnapshot snapshot, CheckSamples samples) {
        return CheckReport.of(
                snapshot.name(),
                samples.tasksWanted(),
                ALL.stream().map(c -> c.check(snapshot, samples)).toList());
    }
}
