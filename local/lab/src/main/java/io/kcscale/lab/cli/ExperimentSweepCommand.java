package io.kcscale.lab.cli;

import io.kcscale.lab.experiment.LagBound;
import io.kcscale.lab.experiment.ScenariosJson;
import io.kcscale.lab.experiment.Sweep;
import io.kcscale.lab.experiment.SweepOutput;
import io.kcscale.lab.experiment.Timing;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.SinkMode;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "sweep",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "For each task count, find the highest source rate the sink sustains: its full-speed throughput first,",
            "then a bisection on the source rate, each trial holding the rate and judging whether the lag stays bounded.",
            "Starts a stack of its own on free ports. About 4 minutes per task count (measured here: 16 minutes for 1,2,3,5; --quick: under 5 minutes)."
        })
final class ExperimentSweepCommand implements Callable<Integer> {

    static final int MAX_PARTITIONS = 1000;

    @Option(
            names = "--tasks",
            paramLabel = "N,N,...",
            description = "Task counts to measure, increasing (default: 1,2,3,5; with --quick 1,2,3).")
    String tasks;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "20",
            description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--sink-mode",
            paramLabel = "index|bulk",
            defaultValue = "index",
            description =
                    "index: one request per record, waiting for each answer; bulk: one bulk request per batch (default: ${DEFAULT-VALUE}).")
    String sinkMode;

    @Mixin
    ExperimentOptions options = new ExperimentOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ExperimentConsole console = new ExperimentConsole(spec, options);
        Sweep.Plan plan;
        try {
            plan = new Sweep.Plan(
                    taskCounts(),
                    partitions,
                    SinkMode.parse(sinkMode),
                    options.seed,
                    Timing.of(options.quick),
                    LagBound.DEFAULT,
                    options.sinkLatencyMs(0),
                    0,
                    true);
        } catch (IllegalArgumentException e) {
            return console.refuse(e);
        }
        console.progress("bounded means: " + plan.bound().describe());
        return console.run(
                progress -> Sweep.run(InstallLayout.toolkitHome(), options.data(), plan, progress),
                (dir, result, command) -> SweepOutput.write(dir, result, command, options.quick),
                result -> ScenariosJson.write(List.of(result.scenario())),
                SweepOutput::table);
    }

    /** The --tasks list, checked: whole numbers from 1, increasing, none above the partitions. */
    private List<Integer> taskCounts() {
        if (partitions < 1 || partitions > MAX_PARTITIONS) {
            throw new IllegalArgumentException(
                    "--partitions must be from 1 to " + MAX_PARTITIONS + ", got " + partitions);
        }
        return TaskCounts.parse(
                "--tasks", tasks != null ? tasks : options.quick ? "1,2,3" : "1,2,3,5", "1,2,3,5", partitions);
    }
}
