package io.kcscale.lab.experiment;

import io.kcscale.local.StackEndpoints;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.poll.PollTimeoutException;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the scaler's checks say about a scenario before it is measured, judged for the most tasks the
 * scenario will run, with a light load flowing. The checks run in a scaler service of this process
 * with a short window: the stack's own scaler looks back 30 s, which would still hold the previous
 * scenario's topic.
 */
final class PreRunChecks {

    /** Records/s while the checks look: enough to fill every keyed partition, far below any sink's capacity. */
    static final double LOAD = 200;

    private static final Duration WINDOW = Duration.ofSeconds(6);
    private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    private static final SampleBudget KEY_SAMPLE = new SampleBudget(20_000, Duration.ofSeconds(3));
    private static final Duration STEADY_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(2);

    private PreRunChecks() {}

    /** Every finding of warning or worse, in the checks' order. */
    static List<Finding> raised(ExperimentPipeline pipeline, int tasks, Path stateDir, Consumer<String> progress) {
        progress.accept(
                "running the scaler's checks for " + tasks + " task(s) under a load of " + (int) LOAD + " records/s");
        pipeline.sinkTasks(tasks);
        pipeline.source().at(LOAD);
        try (ScalerService scaler = new ScalerService(settings(pipeline.endpoints(), stateDir))) {
            scaler.start();
            steadySnapshot(scaler);
            return scaler.scaler().checks(StackOptions.SINK_CONNECTOR, KEY_SAMPLE).findings().stream()
                    .filter(f -> f.severity().atLeast(Severity.WARNING))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            pipeline.source().stop();
            pipeline.awaitLagAtMost(LagBound.DEFAULT.capFloor(), DRAIN_TIMEOUT);
        }
    }

    /**
     * A full window without a rebalance in which the sink committed: on a fresh topic the window's first
     * samples predate the group's first commit, and a rate over them reads 0. Past the deadline, the
     * window as it is (the stability check then says why).
     */
    private static PipelineSnapshot steadySnapshot(ScalerService scaler) {
        try {
            return Poll.until(
                    "a steady window of the sink",
                    STEADY_TIMEOUT,
                    Duration.ofMillis(500),
                    () -> scaler.scaler()
                            .observed(StackOptions.SINK_CONNECTOR)
                            .filter(s -> s.stable()
                                    && s.windowSeconds() >= WINDOW.toSeconds() - SAMPLE_INTERVAL.toSeconds()
                                    && s.rates().sinkPerSecond() != null
                                    && s.rates().sinkPerSecond() > 0));
        } catch (PollTimeoutException e) {
            return scaler.scaler()
                    .observed(StackOptions.SINK_CONNECTOR)
                    .orElseThrow(() -> new IllegalStateException(
                            "the scaler could not observe " + StackOptions.SINK_CONNECTOR + ": " + e.getMessage()));
        }
    }

    private static ScalerSettings settings(StackEndpoints endpoints, Path stateDir) {
        return ScalerSettings.fromValues(Map.of(
                "connect.url", endpoints.connectUrl().toString(),
                "kafka.bootstrap.servers", endpoints.kafkaBootstrap(),
                "elasticsearch.url", endpoints.elasticsearchUrl().toString(),
                "window.seconds", String.valueOf(WINDOW.toSeconds()),
                "sample.interval.seconds", String.valueOf(SAMPLE_INTERVAL.toSeconds()),
                "state.dir", stateDir.toString(),
                // the worker's consumer settings, for the rebalance-config check
                "connect.worker.config",
                        endpoints
                                .dataDir()
                                .resolve("config/connect-0.properties")
                                .toString()));
    }
}
