package io.kcscale.local.cli;

import io.kcscale.local.InstallLayout;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The data directory, shared by up and down so both find the same stack. */
final class DataDirOption {

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description =
                    "Where the stack keeps its state and logs (default: data/ in the toolkit's folder, git-ignored).")
    Path dataDir;

    Path resolve() {
        return dataDir != null
                ? dataDir.toAbsolutePath().normalize()
                : InstallLayout.toolkitHome().resolve("data");
    }
}
