package io.kcscale.lab.cli;

import io.kcscale.local.InstallLayout;
import java.nio.file.Path;

import picocli.CommandLine.Option;

/** The options every experiment shares: how long it looks, its seed, where its stack and results go. */
final class ExperimentOptions {

    static final long DEFAULT_SEED = 42;

    @Option(names = "--quick", description = "Shorter holds and fewer points: done in under five minutes on two cores (CI).")
    boolean quick;
    @Option(names = "--seed", paramLabel = "N", defaultValue = "" + DEFAULT_SEED,
            description = "Seeds the source's data and the latency sample: the same seed gives the same load (default: ${DEFAULT-VALUE}).")
    long seed;
    @Option(names = "--json", description = "Print {\"scenarios\": [...]} as JSON instead of a table (progress stays on stderr).")
    boolean json;
    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "The experiment stack's state and logs, wiped first (default: data/experiment in the toolkit's folder).")
    Path dataDir;
    @Option(names = "--results-dir", paramLabel = "DIR",
            description = "Where the run's folder <timestamp>/ goes (default: experiments/results in the toolkit's folder).")
    Path resultsDir;

    Path data() {
        return dataDir != null ? dataDir.toAbsolutePath().normalize() : InstallLayout.toolkitHome().resolve("data/experiment");
    }

    Path results() {
        return resultsDir != null ? resultsDir.toAbsolutePath().normalize() : InstallLayout.toolkitHome().resolve("experiments/results");
    }
}
