package io.kcscale.lab.cli;

import io.kcscale.lab.experiment.Humps;
import io.kcscale.lab.experiment.HumpsOutput;
import io.kcscale.lab.experiment.ScenariosJson;
import io.kcscale.lab.experiment.Timing;
import io.kcscale.local.InstallLayout;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "humps",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Reproduce the two speed humps, showing what the scaler's checks said before each run:",
            "key-hump-side and key-hump-price (20 partitions, 1 -> 2 -> 3 -> 3 -> 2 -> 1 tasks, keyed by side, then by price;",
            "--quick: 2 -> 3 -> 3 -> 2 -> 2 -> 3 keyed by side, 1 -> 3 -> 3 -> 1 -> 1 -> 3 keyed by price),",
            "shard-hump-1 and shard-hump-3 (3 tasks into a 1-shard, then a 3-shard index).",
            "Starts a stack of its own on free ports. About 6 minutes, 8 if the warm-up takes all its windows (--quick: under 5)."
        })
final class ExperimentHumpsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentOptions options = new ExperimentOptions();

    @Override
    public Integer call() {
        Timing timing = Humps.timing(options.quick);
        return new ExperimentConsole(spec, options)
                .run(
                        progress -> Humps.run(
                                InstallLayout.toolkitHome(),
                                options.data(),
                                timing,
                                options.quick,
                                options.seed,
                                options.sinkLatencyMs(0),
                                progress),
                        (dir, result, command) ->
                                HumpsOutput.write(dir, result, command, options.seed, options.quick, timing),
                        result -> ScenariosJson.write(result.scenarios()),
                        HumpsOutput::summary);
    }
}
