package io.kcscale.scaler.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.api.HttpStatuses;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectTasksMaxWriter;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.IndexCounter;
import io.kcscale.scaler.ports.PartitionCount;
import io.kcscale.scaler.ports.PreScaleChecks;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.ports.SnapshotSource;
import io.kcscale.scaler.ports.WorkerProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The scale action against an in-memory Connect: what it refuses, writes, waits for and answers. */
class ScaleActionTest {

    private static final String SINK = "sink";
    private static final Map<String, String> CONFIG = Map.of(
            "connector.class",
            "CamelElasticsearchSink",
            "tasks.max",
            "2",
            "topics",
            "t",
            "camel.sink.endpoint.indexName",
            "idx");

    private InMemoryConnect connect = new InMemoryConnect(SINK, "sink", CONFIG, 2);
    private PartitionCount partitions = topic -> 4;
    private final AtomicLong indexed = new AtomicLong();
    /** Grows on every read: the sink makes progress all along. */
    private IndexCounter indexCounter = index -> indexed.addAndGet(10);

    private SnapshotSource snapshots = connector -> Optional.empty();
    private PreScaleChecks checks = (snapshot, tasks) -> List.of();
    private Duration convergeTimeout = Duration.ofSeconds(10);
    private WorkerProbe workers = ids -> Set.copyOf(ids);

    private ScaleAction action() {
        return new ScaleAction(
                connect,
                new ConnectTasksMaxWriter(connect),
                partitions,
                indexCounter,
                SinkIndexes.none(),
                snapshots,
                checks,
                workers,
                8,
                convergeTimeout,
                System::currentTimeMillis);
    }

    private ScalerException refused(ScaleRequest request) {
        ScalerException e = assertThrows(ScalerException.class, () -> action().scale(SINK, request));
        assertEquals(0, connect.puts, "a refused scale writes nothing");
        assertEquals(CONFIG, connect.config());
        return e;
    }

    @Test
    void aScaleThatBreaksARuleTouchesNothing() {
        ScalerException aboveCap = refused(new ScaleRequest(9, false, true));
        assertEquals(ScalerException.Problem.REFUSED, aboveCap.problem());
        assertEquals("tasks", aboveCap.field());
        assertTrue(aboveCap.getMessage().startsWith("tasks 9 is above the task cap of 8"), aboveCap.getMessage());

        ScalerException idle = refused(new ScaleRequest(5, false, false));
        assertTrue(idle.getMessage().startsWith("tasks 5 is above the 4 partitions of the topic"), idle.getMessage());

        partitions = topic -> {
            throw new IllegalStateException("Kafka does not answer");
        };
        ScalerException unknownPartitions = refused(new ScaleRequest(3, false, false));
        assertTrue(
                unknownPartitions.getMessage().startsWith("the partition count is unknown"),
                unknownPartitions.getMessage());
    }

    @Test
    void aWorkerTheSnapshotFoundSilentRefusesUnlessItAnswersNowOrTheScaleIsForced() {
        snapshots = connector -> Optional.of(new PipelineSnapshot(
                SINK,
                List.of("t"),
                2,
                4,
                Map.of("t", 4),
                "range",
                List.of(PipelineSnapshot.Task.of(
                        0,
                        PipelineSnapshot.Task.WORKER_UNREACHABLE,
                        "w1:8083",
                        Map.of("t", List.of(0, 1)),
                        0.0,
                        false,
                        null,
                        null)),
                null,
                null,
                null,
                false,
                List.of(),
                null,
                null,
                false,
                List.of(),
                Map.of("w1:8083", 8L),
                null,
                10,
                0));
        ScalerException e = refused(new ScaleRequest(3, false, false));
        assertEquals(ScalerException.Problem.REFUSED, e.problem());
        assertTrue(
                e.getMessage().startsWith("worker w1:8083 has not answered for 8 s (tasks [0] on it)"), e.getMessage());

        assertEquals(
                3, action().scale(SINK, new ScaleRequest(3, true, false, true)).after(), "forced (a dry run)");
        workers = ids -> Set.of();
        assertEquals(
                3,
                action().scale(SINK, new ScaleRequest(3, true, false)).after(),
                "restarted since the snapshot: it answers now");
    }

    @Test
    void aSourceConnectorIsRefused() {
        connect = new InMemoryConnect(SINK, "source", CONFIG, 2);
        ScalerException e = refused(new ScaleRequest(3, false, false));
        assertEquals(ScalerException.Problem.REFUSED, e.problem());
        assertEquals("sink is not a sink connector: the scaler changes sink tasks only", e.getMessage());
    }

    @Test
    void aCriticalFindingBlocksAScaleUpUnlessForced() {
        snapshots = connector -> Optional.of(stableSnapshot());
        checks = (snapshot, tasks) -> List.of(new Finding(
                "key-cardinality", Severity.CRITICAL, "too few keys", Map.of(), "use a key with more values."));
        ScalerException blocked = refused(new ScaleRequest(3, false, false));
        assertEquals(ScalerException.Problem.REFUSED, blocked.problem());
        assertTrue(
                blocked.getMessage().startsWith("adding tasks would not help: key-cardinality: too few keys."),
                blocked.getMessage());

        ScaleResult forced = action().scale(SINK, new ScaleRequest(3, false, false, true));
        assertEquals(3, forced.after());
        assertTrue(
                forced.warnings().contains("key-cardinality (critical): too few keys"),
                forced.warnings().toString());
    }

    @Test
    void anUnknownConnectorOrAnUnreadableTasksMaxIsSaidSo() {
        ScalerException unknown =
                assertThrows(ScalerException.class, () -> action().scale("other", new ScaleRequest(3, false, false)));
        assertEquals(ScalerException.Problem.UNKNOWN_CONNECTOR, unknown.problem());
        assertEquals("no connector named other", unknown.getMessage());

        Map<String, String> odd = new HashMap<>(CONFIG);
        odd.put("tasks.max", "two");
        connect = new InMemoryConnect(SINK, "sink", odd, 2);
        ScalerException notANumber =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));
        assertEquals(ScalerException.Problem.REFUSED, notANumber.problem());
        assertEquals("the connector's tasks.max is not a number: two", notANumber.getMessage());
        assertEquals(0, connect.puts);
    }

    @Test
    void aDryRunSaysWhatItWouldDoAndWritesNothing() {
        ScaleResult result = action().scale(SINK, new ScaleRequest(3, true, false));

        assertTrue(result.dryRun());
        assertEquals(2, result.before());
        assertEquals(3, result.after());
        assertEquals(2, result.tasksRunning());
        assertNull(result.rebalancePauseSeconds());
        assertEquals(
                "set tasks.max of sink from 2 to 3 (that key only, refused if the connector was deleted or its tasks.max"
                        + " changed meanwhile), then wait until 3 tasks are RUNNING",
                result.plan());
        assertTrue(
                result.warnings().get(0).startsWith("the pipeline was not stable before the change"),
                result.warnings().toString());
        assertEquals(0, connect.puts);
    }

    @Test
    void theSameTaskCountChangesNothing() {
        ScaleResult result = action().scale(SINK, new ScaleRequest(2, false, false));

        assertFalse(result.dryRun());
        assertEquals(2, result.after());
        assertTrue(
                result.warnings().contains("tasks.max is already 2: nothing to change"),
                result.warnings().toString());
        assertEquals(0, connect.puts);
    }

    @Test
    void aScaleWritesTasksMaxWaitsForTheTasksAndMeasuresThePause() {
        snapshots = connector -> Optional.of(stableSnapshot());
        ScaleResult result = action().scale(SINK, new ScaleRequest(4, false, false));

        assertEquals(2, result.before());
        assertEquals(4, result.after());
        assertEquals(4, result.tasksRunning());
        assertNotNull(result.rebalancePauseSeconds());
        assertEquals(List.of(), result.warnings());
        Map<String, String> expected = new HashMap<>(CONFIG);
        expected.put("tasks.max", "4");
        assertEquals(expected, connect.config(), "only tasks.max changes");
        assertEquals(1, connect.puts);
        assertEquals(1, connect.patches, "a PATCH of tasks.max alone");
    }

    @Test
    void anEditOfAnotherKeyWhileTheScaleRunsSurvivesIt() {
        connect.beforeFirstWrite = () -> connect.edit("errors.tolerance", "all");
        assertEquals(3, action().scale(SINK, new ScaleRequest(3, false, false)).after());

        assertEquals("all", connect.config().get("errors.tolerance"));
        assertEquals("3", connect.config().get("tasks.max"));
    }

    @Test
    void aConnectorDeletedWhileTheScaleRunsIsNotCreatedAgain() {
        for (boolean patch : new boolean[] {true, false}) {
            connect = new InMemoryConnect(SINK, "sink", CONFIG, 2);
            connect.patchUnsupported = !patch;
            connect.beforeFirstWrite = () -> connect.deleteConnector(SINK);
            ScalerException e =
                    assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));

            assertEquals(ScalerException.Problem.GONE, e.problem());
            assertEquals(404, HttpStatuses.of(e.problem()));
            assertEquals("sink was deleted while the scale ran; it was not re-created", e.getMessage());
            assertFalse(connect.exists(), "with PATCH " + patch);
        }
    }

    @Test
    void withoutPatchTheWholeConfigIsPutOnlyIfNothingChangedSinceTheChecks() {
        connect.patchUnsupported = true;
        assertEquals(3, action().scale(SINK, new ScaleRequest(3, false, false)).after());
        assertEquals(1, connect.puts);
        assertEquals(0, connect.patches);

        connect.beforeFirstWrite = () -> connect.edit("errors.tolerance", "all");
        ScalerException e =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(2, false, false)));
        assertEquals(ScalerException.Problem.CONFLICT, e.problem());
        assertEquals(
                "the config of sink changed while the scale ran its checks (keys [errors.tolerance]); this Kafka Connect"
                        + " has no PATCH, and a PUT of the whole config would undo that change: nothing written; retry the scale",
                e.getMessage());
        assertEquals(1, connect.puts);
        assertEquals("all", connect.config().get("errors.tolerance"));
        assertEquals("3", connect.config().get("tasks.max"));
    }

    @Test
    void aTaskCountChangedDuringTheChecksIsNotOverwritten() {
        snapshots = connector -> Optional.of(stableSnapshot());
        checks = (snapshot, tasks) -> {
            connect.edit("tasks.max", "5");
            return List.of();
        };
        ScalerException e =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));

        assertEquals(ScalerException.Problem.CONFLICT, e.problem());
        assertTrue(
                e.getMessage().startsWith("tasks.max of sink changed from 2 to 5 while the scale ran its checks"),
                e.getMessage());
        assertEquals(0, connect.puts);
        assertEquals("5", connect.config().get("tasks.max"));
    }

    @Test
    void anotherWritersTaskCountWhileTheScaleWaitsEndsItSayingWhoWon() {
        connect.afterFirstWrite = () -> connect.edit("tasks.max", "4");
        convergeTimeout = Duration.ofMinutes(5);
        ScalerException e =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));

        assertEquals(ScalerException.Problem.CONFLICT, e.problem());
        assertEquals(
                "tasks.max of sink was set to 4 by another writer (a second scaler or a user) while this scale to 3"
                        + " waited for its tasks: the last write stands, so 4 it is",
                e.getMessage());
    }

    @Test
    void aWriteWhoseAnswerWasLostIsReadBackAndCarriesOn() {
        connect.loseAnswer =
                new ConnectRestException.Unreachable("Kafka Connect at x is unreachable: HttpTimeoutException", null);
        ScaleResult result = action().scale(SINK, new ScaleRequest(3, false, false));

        assertEquals(3, result.tasksRunning());
    }

    @Test
    void anElasticsearchThatDoesNotAnswerLeavesThePauseUnmeasured() {
        indexCounter = index -> {
            throw new IllegalStateException("Elasticsearch does not answer");
        };
        ScaleResult result = action().scale(SINK, new ScaleRequest(3, false, false));

        assertEquals(3, result.tasksRunning());
        assertNull(result.rebalancePauseSeconds());
        assertTrue(
                result.warnings().contains("the pause could not be measured: Elasticsearch did not answer"),
                result.warnings().toString());
    }

    @Test
    void aWriteConnectRefusesIsSaidSo() {
        connect.refusePut =
                new ConnectRestException.ConfigRejected(400, "PATCH /connectors/sink/config -> 400: bad tasks.max");
        ScalerException e =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));

        assertEquals(ScalerException.Problem.UNAVAILABLE, e.problem());
        assertEquals(
                "Kafka Connect refused tasks.max 3 (tasks.max stays 2): PATCH /connectors/sink/config -> 400: bad tasks.max",
                e.getMessage());
        assertEquals(CONFIG, connect.config());
    }

    @Test
    void aWriteWithoutAnAnswerIsNeverCalledUnchanged() {
        connect.refusePut = new ConnectRestException(500, "PATCH /connectors/sink/config -> 500: Request timed out");
        ScalerException e =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));

        assertEquals(ScalerException.Problem.UNCONFIRMED, e.problem());
        assertEquals(
                "the write of tasks.max 3 got no answer (PATCH /connectors/sink/config -> 500: Request timed out);"
                        + " Kafka Connect holds tasks.max 2 now and may still apply the write: read tasks.max before retrying",
                e.getMessage());
    }

    @Test
    void aFailedTaskEndsTheWaitAtOnceWithItsTrace() {
        connect.afterPut = InMemoryConnect.AfterPut.FAIL;
        convergeTimeout = Duration.ofMinutes(5);
        long start = System.nanoTime();
        ScalerException e =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));

        assertEquals(ScalerException.Problem.NOT_CONVERGED, e.problem());
        assertTrue(
                e.getMessage().startsWith("tasks.max is now 3 but the tasks did not all run within 300 s: "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("task 0 FAILED: boom: no route to Elasticsearch"), e.getMessage());
        assertTrue(
                System.nanoTime() - start < Duration.ofSeconds(30).toNanos(), "the wait did not run to its deadline");
    }

    @Test
    void tasksConnectFailedAsMoreThanTasksMaxAreRestartedOnceAndTheScaleGoesOn() {
        // a write close behind another's: Connect started tasks from the configs of the earlier tasks.max
        connect.afterPut = InMemoryConnect.AfterPut.FAIL_TOO_MANY;
        ScaleResult result = action().scale(SINK, new ScaleRequest(3, false, false));

        assertEquals(3, result.tasksRunning());
        assertEquals(1, connect.restarts, "the failed tasks restarted once");
    }

    @Test
    void aWriteItsFenceStopsIsNotSentAndTheScaleIsAbandoned() {
        List<String> asked = new java.util.ArrayList<>();
        WriteFence lapsed = (what, timeout) -> {
            asked.add(what);
            throw new WriteFence.Lapsed(what + " not sent: the lease lapsed");
        };
        ScalerException e = assertThrows(
                ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false), lapsed));

        assertEquals(ScalerException.Problem.ABANDONED, e.problem());
        assertEquals(503, HttpStatuses.of(e.problem()));
        assertEquals("PATCH sink not sent: the lease lapsed", e.getMessage());
        assertEquals(List.of("PATCH sink"), asked, "asked right before the write, the reads not");
        assertEquals(0, connect.putsStarted, "nothing reached Connect");
        assertEquals("2", connect.config().get("tasks.max"));
    }

    @Test
    void aRestartOfFailedTasksItsFenceStopsEndsTheWaitAsAbandoned() {
        connect.afterPut = InMemoryConnect.AfterPut.FAIL_TOO_MANY;
        WriteFence writesOnce = (what, timeout) -> {
            if (!what.startsWith("PATCH")) {
                throw new WriteFence.Lapsed(what + " not sent: the lease lapsed");
            }
        };
        ScalerException e = assertThrows(
                ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false), writesOnce));

        assertEquals(ScalerException.Problem.ABANDONED, e.problem(), e.getMessage());
        assertEquals("restart sink not sent: the lease lapsed", e.getMessage());
        assertEquals(0, connect.restarts);
        assertEquals("3", connect.config().get("tasks.max"), "the write it let through stands");
    }

    @Test
    void tasksThatDoNotConvergeInTimeAreSaidSo() {
        connect.afterPut = InMemoryConnect.AfterPut.STAY;
        convergeTimeout = Duration.ofMillis(500);
        ScalerException e =
                assertThrows(ScalerException.class, () -> action().scale(SINK, new ScaleRequest(3, false, false)));

        assertEquals(ScalerException.Problem.NOT_CONVERGED, e.problem());
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "tasks.max is now 3 but the tasks did not all run within 0 s: timed out after 500 ms"
                                        + " waiting for exactly 3 RUNNING tasks of sink"),
                e.getMessage());
        assertEquals("3", connect.config().get("tasks.max"));
    }

    @Test
    void aSecondScaleOfTheSameConnectorWhileOneRunsIsRefused() throws Exception {
        connect.holdPut = new CountDownLatch(1);
        ScaleAction action = action();
        CompletableFuture<ScaleResult> first =
                CompletableFuture.supplyAsync(() -> action.scale(SINK, new ScaleRequest(3, false, false)));
        Poll.untilTrue(
                "the first scale to write",
                Duration.ofSeconds(10),
                Duration.ofMillis(10),
                () -> connect.putsStarted > 0,
                () -> "no PUT yet");

        ScalerException second =
                assertThrows(ScalerException.class, () -> action.scale(SINK, new ScaleRequest(4, false, false)));
        assertEquals(ScalerException.Problem.IN_PROGRESS, second.problem());
        assertEquals("a scale of sink is already in progress; retry when it has finished", second.getMessage());

        connect.holdPut.countDown();
        assertEquals(3, first.get().after());
        assertEquals(
                4,
                action.scale(SINK, new ScaleRequest(4, false, false)).after(),
                "free again once the first has finished");
    }

    private static PipelineSnapshot stableSnapshot() {
        return new PipelineSnapshot(
                SINK,
                List.of("t"),
                2,
                4,
                Map.of("t", 4),
                "range",
                List.of(),
                null,
                null,
                null,
                true,
                List.of(),
                null,
                null,
                false,
                List.of(),
                Map.of(),
                null,
                10,
                0);
    }
}
