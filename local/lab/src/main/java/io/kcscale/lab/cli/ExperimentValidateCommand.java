package io.kcscale.lab.cli;

import io.kcscale.lab.experiment.Validation;
import io.kcscale.lab.experiment.ValidationOutput;
import io.kcscale.local.InstallLayout;
import io.kcscale.local.SinkDelayProxy;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Whether predict tasks earns trust: measure the sustained rate at the --fit task counts, fit them as predict tasks",
            "does (USL, or linear with fewer than 3 counts), predict the --check counts, measure those too, and report prediction,",
            "measurement and error per held-out point, and whether the tasks predict tasks recommends held their rate.",
            "Starts a stack of its own on free ports; by default in the remote-cluster regime (--sink-latency-ms 14) with a contended",
            "resource (--sink-serial-ms 12), where throughput bends and the USL, not a straight line, is the model.",
            "About 4 minutes per task count (--quick: 4 task counts in about 10 minutes on a 2-core machine, longer when it is loaded)."
        })
final class ExperimentValidateCommand implements Callable<Integer> {

    static final int PARTITIONS = 20;

    @Option(
            names = "--fit",
            paramLabel = "N,N,...",
            description = "Task counts the model is fitted to, increasing (default: 1,2,3; with --quick 1,2,4).")
    String fit;

    @Option(
            names = "--check",
            paramLabel = "N,N,...",
            description = "Held-out task counts, increasing (default: 5,8; with --quick 6).")
    String check;

    @Option(
            names = "--repeat",
            paramLabel = "R",
            defaultValue = "1",
            description =
                    "Measure each held-out count R times, each afresh (default: ${DEFAULT-VALUE}). With R of 2 or more"
                            + " and 4 or more --fit counts, checks the 90% interval predict tasks gives for it: how many of the R"
                            + " runs, and of 40 whole validations drawn with their run-to-run spread, fall inside; below 17 of 20,"
                            + " by how much it must widen.")
    int repeat;

    @Option(
            names = "--sink-serial-ms",
            paramLabel = "S",
            defaultValue = "" + Validation.DEFAULT_SINK_SERIAL_MS,
            description =
                    "After its --sink-latency-ms, every sink request holds one shared lock S ms, one at a time (a contended"
                            + " resource, as one hot shard); 0: none, the linear regime (default: ${DEFAULT-VALUE}).")
    int sinkSerialMs;

    @Mixin
    ExperimentOptions options = new ExperimentOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ExperimentConsole console = new ExperimentConsole(spec, options);
        Validation.Plan plan;
        try {
            int latency = options.sinkLatencyMs(Validation.DEFAULT_SINK_LATENCY_MS);
            if (sinkSerialMs < 0 || sinkSerialMs > SinkDelayProxy.MAX_DELAY_MILLIS) {
                throw new IllegalArgumentException("--sink-serial-ms must be from 0 to "
                        + SinkDelayProxy.MAX_DELAY_MILLIS + ", got " + sinkSerialMs);
            }
            if (sinkSerialMs > 0 && latency == 0) {
                throw new IllegalArgumentException(
                        "--sink-serial-ms needs --sink-latency-ms above 0: the latency proxy holds the lock");
            }
            plan = new Validation.Plan(
                    TaskCounts.parse(
                            "--fit", fit != null ? fit : options.quick ? "1,2,4" : "1,2,3", "1,2,3", PARTITIONS),
                    TaskCounts.parse("--check", check != null ? check : options.quick ? "6" : "5,8", "5,8", PARTITIONS),
                    PARTITIONS,
                    options.seed,
                    Validation.timing(options.quick),
                    latency,
                    sinkSerialMs,
                    repeat);
        } catch (IllegalArgumentException e) {
            return console.refuse(e);
        }
        return console.run(
                progress -> Validation.run(InstallLayout.toolkitHome(), options.data(), plan, progress),
                (dir, result, command) -> ValidationOutput.write(dir, result, command, options.quick),
                ValidationOutput::json,
                ValidationOutput::table);
    }
}
