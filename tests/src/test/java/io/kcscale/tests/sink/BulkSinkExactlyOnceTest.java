package io.kcscale.tests.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.LocalStack;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.tests.fixtures.IndexProgress;
import io.kcscale.tests.fixtures.OwnStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bulk sink on a stack of its own (one worker, so every fault hits every task): while the source
 * produces, the sink is rebalanced (tasks.max 1 → 4 → 2), its worker stopped and started gracefully,
 * then killed with SIGKILL mid-batch and started again. Elasticsearch must end with exactly one
 * document per record in the topic: none lost in the aggregator, none duplicated by the replays.
 */
@Order(20)
@ExtendWith(OwnStack.class)
class BulkSinkExactlyOnceTest {

    private static final long RECORDS = 60_000;
    private static final String WORKER = "connect-0";

    @Test
    void everyRecordIsIndexedOnceThroughRebalancesARestartAndAKill() throws Exception {
        Path home = Path.of(System.getProperty("kcscale.home", ".."))
                .toAbsolutePath()
                .normalize();
        StackOptions options = StackOptions.builder(home)
                .dataDir(home.resolve("tests/target/e2e-bulk-stack"))
                .freePorts()
                .fresh(true)
                .workers(1)
                .sinkMode(SinkMode.BULK)
                .ratePerSecond(2000)
                .iterations(RECORDS)
                .scaler(false)
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .build();
        try (LocalStack stack = LocalStack.start(options, m -> System.out.println("[bulk stack] " + m));
                StackProbe probe = new StackProbe(stack);
                IndexProgress progress = new IndexProgress(stack, StackOptions.INDEX)) {
            Poll.untilTrue(
                    "documents to flow",
                    Duration.ofSeconds(60),
                    Duration.ofMillis(250),
                    () -> probe.documentCount(StackOptions.INDEX) > 0,
                    () -> "none yet");
            Map<String, Double> pauses = new LinkedHashMap<>();
            measure(pauses, "tasks.max 1 -> 4", progress, () -> rescale(probe, 4));
            measure(pauses, "tasks.max 4 -> 2", progress, () -> rescale(probe, 2));
            measure(pauses, "graceful stop and start of " + WORKER, progress, () -> {
                stack.restart(WORKER);
                awaitRunning(probe, 2);
            });
            assertTrue(probe.sinkLag() > 0, "records must be in flight when the worker dies");
            measure(pauses, "kill -9 of " + WORKER + " and start", progress, () -> {
                stack.component(WORKER).kill();
                stack.restart(WORKER);
                awaitRunning(probe, 2);
            });

            long records = probe.awaitEverythingIndexed(RECORDS, Duration.ofSeconds(180));
            assertTrue(
                    records >= RECORDS,
                    "the source stops at " + RECORDS + " (plus what it produced again after the kill)");
            assertEquals(records, probe.documentCount(StackOptions.INDEX), "one document per record in the topic");
            System.out.printf(
                    "[bulk] %d records, %d documents; indexing pauses: %s%n",
                    records, probe.documentCount(StackOptions.INDEX), pauses);
        }
    }

    private static void measure(Map<String, Double> pauses, String change, IndexProgress progress, Runnable action) {
        long at = System.currentTimeMillis();
        action.run();
        progress.awaitProgressAfter(System.currentTimeMillis(), Duration.ofSeconds(60));
        double seconds = progress.pauseAround(at).orElseThrow();
        System.out.printf("[bulk] %s: indexing paused %.1f s%n", change, seconds);
        pauses.put(change, Math.round(seconds * 10) / 10.0);
    }

    private static void rescale(StackProbe probe, int tasks) {
        probe.updateConnector(StackOptions.SINK_CONNECTOR, Map.of("tasks.max", String.valueOf(tasks)));
        awaitRunning(probe, tasks);
    }

    private static void awaitRunning(StackProbe probe, int tasks) {
        new ConnectorChange(probe.connect, Duration.ofSeconds(90)).awaitRunning(StackOptions.SINK_CONNECTOR, tasks);
    }
}
