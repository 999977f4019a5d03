package io.kcscale.lab.cli;

import io.kcscale.local.InstallLayout;
import io.kcscale.local.SinkDelayProxy;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every experiment shares: how long it looks, its seed, where its stack and results go. */
final class ExperimentOptions {

    static final long DEFAULT_SEED = 42;

    @Option(
            names = "--quick",
            description = "Shorter holds and fewer points: done in under five minutes on two cores (CI).")
    boolean quick;

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "" + DEFAULT_SEED,
            description =
                    "Seeds the source's data and the latency sample: the same seed gives the same load (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--json",
            description = "Print {\"scenarios\": [...]} as JSON instead of a table (progress stays on stderr).")
    boolean json;

    @Option(
            names = "--sink-latency-ms",
            paramLabel = "L",
            description =
                    "Every request from the sink to Elasticsearch waits L ms, as against a remote cluster (14: one per-record"
                            + " task does ~70 records/s, the latency-bound regime); 0: none (default: 0; validate: 14).")
    Integer sinkLatencyMs;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description =
                    "The experiment stack's state and logs, wiped first (default: data/experiment in the toolkit's folder).")
    Path dataDir;

    @Option(
            names = "--results-dir",
            paramLabel = "DIR",
            description =
                    "Where the run's folder <timestamp>/ goes (default: experiments/results in the toolkit's folder).")
    Path resultsDir;

    /**
     * The --sink-latency-ms given, else this experiment's default.
     *
     * @throws IllegalArgumentException outside what the delay proxy holds a request for
     */
    int sinkLatencyMs(int byDefault) {
        int latency = sinkLatencyMs != null ? sinkLatencyMs : byDefault;
        if (latency < 0 || latency > SinkDelayProxy.MAX_DELAY_MILLIS) {
            throw new IllegalArgumentException(
                    "--sink-latency-ms must be from 0 to " + SinkDelayProxy.MAX_DELAY_MILLIS + ", got " + latency);
        }
        return latency;
    }

    Path data() {
        return dataDir != null
                ? dataDir.toAbsolutePath().normalize()
                : InstallLayout.toolkitHome().resolve("data/experiment");
    }

    Path results() {
        return resultsDir != null
                ? resultsDir.toAbsolutePath().normalize()
                : InstallLayout.toolkitHome().resolve("experiments/results");
    }
}
