package io.kcscale.lab.experiment;

import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackOptions;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The stack an experiment runs on: its own, fresh, on free ports, so it neither meets nor disturbs
 * a stack from {@code ./kcscale up}; one Connect worker, so every task shares one JVM like the field
 * report's single worker; no scaler service (the checks run in this process, {@link PreRunChecks}).
 */
final class ExperimentStack {

    static final int WORKERS = 1;

    private ExperimentStack() {}

    /**
     * @param sinkLatencyMs every sink request waits this long, as against a remote cluster; 0: none
     * @param sinkSerialMs  then holds one shared lock this long, one request at a time; 0: none
     */
    static LocalStack start(
            Path home,
            Path dataDir,
            int partitions,
            SinkMode sinkMode,
            int sinkLatencyMs,
            int sinkSerialMs,
            Consumer<String> progress) {
        return LocalStack.start(options(home, dataDir, partitions, sinkMode, sinkLatencyMs, sinkSerialMs), progress);
    }

    static StackOptions options(
            Path home, Path dataDir, int partitions, SinkMode sinkMode, int sinkLatencyMs, int sinkSerialMs) {
        return StackOptions.builder(home)
                .dataDir(dataDir)
                .freePorts()
                .fresh(true)
                .workers(WORKERS)
                .partitions(partitions)
                .sinkMode(sinkMode)
                .sinkLatencyMs(sinkLatencyMs)
                .sinkSerialMs(sinkSerialMs)
                .scaler(false)
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .build();
    }
}
