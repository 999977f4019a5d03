package io.kcscale.scaler.scale;

import io.kcscale.scaler.act.CheckGate;
import io.kcscale.scaler.act.RebalancePause;
import io.kcscale.scaler.act.ScaleRules;
import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.TaskPlacement;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectTasksMaxWriter;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.connect.TooManyTasksRestart;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.model.WorkerLoss;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.poll.PollTimeoutException;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.IndexCounter;
import io.kcscale.scaler.ports.PartitionCount;
import io.kcscale.scaler.ports.PreScaleChecks;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.ports.SnapshotSource;
import io.kcscale.scaler.ports.TasksMaxWriter;
import io.kcscale.scaler.ports.WorkerProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Sets a sink connector's {@code tasks.max}: checks the rules first and touches nothing when one is
 * broken; then a conditional write of that one key through the {@link TasksMaxWriter} (Connect's REST API,
 * or a KafkaConnector resource that Strimzi reconciles into Connect; it refuses when the connector was
 * deleted or its task count changed meanwhile), a wait until exactly N tasks run, and
 * the pause it caused, measured from Elasticsearch's index counter read every {@code PROGRESS_INTERVAL}.
 * During the wait another writer's task count, or a delete, ends it at once and is said so.
 */
public final class ScaleAction {

    private static final Duration PROGRESS_INTERVAL = Duration.ofMillis(100);
    private static final Duration CONVERGE_INTERVAL = Duration.ofMillis(200);
    /** How long after convergence to keep watching for the sink to resume, to close the pause. */
    private static final Duration RESUME_WAIT = Duration.ofSeconds(30);

    private final ConnectApi connect;
    private final TasksMaxWriter writer;
    private final PartitionCount partitionCount;
    private final IndexCounter indexCounter;
    private final SinkIndexes indexes;
    private final SnapshotSource snapshots;
    private final PreScaleChecks checks;
    private final WorkerProbe workers;
    private final int taskCap;
    private final Duration convergeTimeout;
    private final LongSupplier clock;
    private final Set<String> inProgress = ConcurrentHashMap.newKeySet();

    /**
     * @param writer  how tasks.max is written; everything else is read from {@code connect}
     * @param indexes where each sink writes, so that the pause can be read off its indexes' counter
     * @param workers asks again, just before a refusal, the workers the snapshot found silent (it may be seconds old,
     *                and a worker just restarted must not stop a scale)
     */
    public ScaleAction(
            ConnectApi connect,
            TasksMaxWriter writer,
            PartitionCount partitionCount,
            IndexCounter indexCounter,
            SinkIndexes indexes,
            SnapshotSource snapshots,
            PreScaleChecks checks,
            WorkerProbe workers,
            int taskCap,
            Duration convergeTimeout,
            LongSupplier clock) {
        this.workers = workers;
        this.connect = connect;
        this.writer = writer;
        this.partitionCount = partitionCount;
        this.indexCounter = indexCounter;
        this.indexes = indexes;
        this.snapshots = snapshots;
        this.checks = checks;
        this.taskCap = taskCap;
        this.convergeTimeout = convergeTimeout;
        this.clock = clock;
    }

    public ScaleResult scale(String connector, ScaleRequest request) {
        return scale(connector, request, () -> {}, WriteFence.NONE);
    }

    /**
     * As {@link #scale(String, ScaleRequest)}; {@code beforeWrite} runs once every check has passed, just before
     * the write (not for a dry run or an unchanged count), while this connector's scale is exclusive.
     */
    public ScaleResult scale(String connector, ScaleRequest request, Runnable beforeWrite) {
        return scale(connector, request, beforeWrite, WriteFence.NONE);
    }

    /**
     * As {@link #scale(String, ScaleRequest)}, with {@code fence} asked right before each write to Connect or
     * Kubernetes (the task count, a restart of tasks the wait finds failed); a write it stops is not sent and ends
     * the scale as {@link ScalerException.Problem#ABANDONED}.
     */
    public ScaleResult scale(String connector, ScaleRequest request, WriteFence fence) {
        return scale(connector, request, () -> {}, fence);
    }

    private ScaleResult scale(String connector, ScaleRequest request, Runnable beforeWrite, WriteFence fence) {
        if (!inProgress.add(connector)) {
            throw new ScalerException(
                    ScalerException.Problem.IN_PROGRESS,
                    "a scale of " + connector + " is already in progress; retry when it has finished");
        }
        try {
            return scaleExclusively(connector, request, beforeWrite, fence);
        } finally {
            inProgress.remove(connector);
        }
    }

    private ScaleResult scaleExclusively(
            String connector, ScaleRequest request, Runnable beforeWrite, WriteFence fence) {
        Map<String, String> config;
        ConnectorStatus status;
        try {
            config = connect.connectorConfig(connector);
            status = connect.connectorStatus(connector);
        } catch (ConnectRestException.ConnectorNotFound e) {
            throw new ScalerException(ScalerException.Problem.UNKNOWN_CONNECTOR, "no connector named " + connector);
        } catch (ConnectRestException.PathRejected e) {
            throw pathRejected(connect, connector, e);
        } catch (ConnectRestException e) {
            throw new ScalerException(
                    ScalerException.Problem.UNAVAILABLE,
                    "cannot read " + connector + " from Kafka Connect: " + e.getMessage());
        }
        int before = parseTasksMax(config);
        Optional<PipelineSnapshot> snapshot = snapshots.snapshot(connector);
        Map<String, Integer> partitionsPerTopic = partitionsPerTopic(config, snapshot);
        String assignor = snapshot.map(PipelineSnapshot::assignor).orElse(null);
        ScaleRules.Facts facts = new ScaleRules.Facts(
                connector,
                status.isSink(),
                before,
                partitionsPerTopic == null
                        ? null
                        : TaskPlacement.tasksWithPartitionsAtMost(assignor, partitionsPerTopic),
                taskCap,
                snapshot.map(PipelineSnapshot::stable).orElse(false),
                snapshot.map(PipelineSnapshot::reasons).orElse(List.of("the scaler has not observed it yet")),
                workerLoss(snapshot),
                partitionsPerTopic != null && partitionsPerTopic.size() > 1
                        ? TaskPlacement.boundReason(assignor, partitionsPerTopic)
                        : null);
        Optional<String> refusal =
                ScaleRules.refusal(request.tasks(), request.allowIdleTasks(), request.force(), facts);
        if (refusal.isPresent()) {
            throw new ScalerException(ScalerException.Problem.REFUSED, refusal.get(), "tasks");
        }
        List<String> warnings = new ArrayList<>(ScaleRules.warnings(request.tasks(), facts));
        if (request.tasks() != before && snapshot.isPresent()) {
            List<Finding> findings = checks.findings(snapshot.get(), request.tasks());
            Optional<String> blocked = CheckGate.refusal(findings, before, request.tasks(), request.force());
            if (blocked.isPresent()) {
                throw new ScalerException(ScalerException.Problem.REFUSED, blocked.get(), "tasks");
            }
            warnings.addAll(CheckGate.warnings(findings));
        }
        String plan = "set tasks.max of " + connector + " from " + before + " to " + request.tasks()
                + " (" + writer.describe(connector) + "), then wait until "
                + request.tasks() + " tasks are RUNNING";
        int running = (int) status.tasksInState("RUNNING");
        if (request.dryRun() || request.tasks() == before) {
            return new ScaleResult(connector, before, request.tasks(), running, null, request.dryRun(), plan, warnings);
        }

        beforeWrite.run();
        ProgressRecorder progress = new ProgressRecorder(indexes.of(connector, config, topics(config, snapshot)));
        progress.start();
        long changeAt = clock.getAsLong();
        try {
            writer.write(connector, config, request.tasks(), fence);
            running = awaitRunning(connector, before, request.tasks(), fence)
                    .tasks()
                    .size();
        } catch (WriteFence.Lapsed e) {
            progress.stop();
            throw abandoned(e);
        } catch (ScalerException e) {
            progress.stop();
            throw e;
        } catch (PollTimeoutException e) {
            progress.stop();
            throw new ScalerException(
                    ScalerException.Problem.NOT_CONVERGED,
                    "tasks.max is now " + request.tasks() + " but the tasks did not all run within "
                            + convergeTimeout.toSeconds() + " s: " + e.getMessage());
        }
        OptionalDouble pause = progress.awaitResumeAndStop(changeAt);
        if (pause.isEmpty()) {
            warnings.add(
                    progress.indexes.isEmpty()
                            ? "the pause is measured on the Elasticsearch index, and this sink writes to none the scaler knows"
                            : progress.available()
                                    ? "no sink progress was seen after the change, so its pause could not be measured (is there load?)"
                                    : "the pause could not be measured: Elasticsearch did not answer");
        }
        return new ScaleResult(
                connector,
                before,
                request.tasks(),
                running,
                pause.isPresent() ? pause.getAsDouble() : null,
                false,
                plan,
                warnings);
    }

    /** The snapshot's silent workers that are silent still. */
    private WorkerLoss workerLoss(Optional<PipelineSnapshot> snapshot) {
        WorkerLoss seen = snapshot.map(WorkerLoss::of).orElse(WorkerLoss.NONE);
        return seen.none() ? seen : seen.still(workers.unanswered(seen.workers().keySet()));
    }

    /**
     * Waits for exactly {@code tasks} RUNNING tasks, reading tasks.max back on every probe: a delete, or a task
     * count that another writer set (neither the one written nor, before the write shows, the one before), ends
     * the wait as a {@link ScalerException}; whoever wrote last decides, and this scale says it lost.
     */
    private ConnectorStatus awaitRunning(String connector, int before, int tasks, WriteFence fence) {
        TooManyTasksRestart restart = new TooManyTasksRestart(connect.fenced(fence));
        Outcome outcome =
                Poll.until(ConnectorChange.awaiting(connector, tasks), convergeTimeout, CONVERGE_INTERVAL, () -> {
                    Map<String, String> config;
                    try {
                        config = connect.connectorConfig(connector);
                    } catch (ConnectRestException.ConnectorNotFound e) {
                        return Optional.of(new Outcome(null, ConnectTasksMaxWriter.gone(connector)));
                    }
                    String held = config.get("tasks.max");
                    if (!String.valueOf(tasks).equals(held)
                            && !String.valueOf(before).equals(held)) {
                        return Optional.of(new Outcome(
                                null,
                                new ScalerException(
                                        ScalerException.Problem.CONFLICT,
                                        "tasks.max of "
                                                + connector + " was set to " + held
                                                + " by another writer (a second scaler or a user) while this scale"
                                                + " to " + tasks + " waited for its tasks: the last write stands, so "
                                                + held + " it is")));
                    }
                    try {
                        return ConnectorChange.runningExactly(connect, connector, tasks, restart)
                                .map(s -> new Outcome(s, null));
                    } catch (WriteFence.Lapsed e) {
                        return Optional.of(new Outcome(null, abandoned(e)));
                    }
                });
        if (outcome.refusal() != null) {
            throw outcome.refusal();
        }
        return outcome.status();
    }

    private static ScalerException abandoned(WriteFence.Lapsed e) {
        return new ScalerException(ScalerException.Problem.ABANDONED, e.getMessage());
    }

    /** What the wait ended with: the tasks running, or why it gave up early. */
    private record Outcome(ConnectorStatus status, ScalerException refusal) {}

    /**
     * What to answer when Connect's web server refused the connector's name in a path: 422 saying why for a connector
     * its listing (which needs no name in the path) shows, else 404.
     */
    public static ScalerException pathRejected(
            ConnectApi connect, String connector, ConnectRestException.PathRejected e) {
        boolean listed;
        try {
            listed = connect.connectors().contains(connector);
        } catch (ConnectRestException unreadable) {
            listed = false;
        }
        if (!listed) {
            return new ScalerException(
                    ScalerException.Problem.UNKNOWN_CONNECTOR,
                    "no connector named " + connector + " (Kafka Connect rejects the name in a path)");
        }
        return new ScalerException(
                ScalerException.Problem.UNADDRESSABLE,
                "Kafka Connect cannot address " + connector + " by name ("
                        + e.getMessage()
                        + "): its web server refuses an encoded '/' or '%' in a path, so no client can change this"
                        + " connector's config; re-create it under a name without them");
    }

    /**
     * The partitions of each of the sink's topics, read now: those its config lists, else those the watcher matched its
     * topics.regex to; null when Kafka does not answer for one of them.
     */
    private Map<String, Integer> partitionsPerTopic(Map<String, String> config, Optional<PipelineSnapshot> snapshot) {
        List<String> topics = topics(config, snapshot);
        try {
            Map<String, Integer> counts = new TreeMap<>();
            topics.forEach(topic -> counts.put(topic, partitionCount.of(topic)));
            return counts.isEmpty() ? null : counts;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The sink's topics: those its config lists, else those the watcher matched its topics.regex to. */
    private static List<String> topics(Map<String, String> config, Optional<PipelineSnapshot> snapshot) {
        List<String> listed = SinkTarget.topics(config);
        return listed.isEmpty() ? snapshot.map(PipelineSnapshot::topics).orElse(List.of()) : listed;
    }

    private static int parseTasksMax(Map<String, String> config) {
        try {
            return ConnectorChange.tasksMax(config);
        } catch (NumberFormatException e) {
            throw new ScalerException(
                    ScalerException.Problem.REFUSED,
                    "the connector's tasks.max is not a number: " + config.get("tasks.max"));
        }
    }

    /**
     * Reads the index counter of all the sink's indexes in the background from before the change until the sink has
     * resumed: summed over every index behind each alias or data stream, it keeps counting through a rollover.
     */
    private final class ProgressRecorder {
        private final List<String> indexes;
        private final List<RebalancePause.Reading> readings = Collections.synchronizedList(new ArrayList<>());
        private volatile boolean stopped;
        private volatile boolean available = true;
        private Thread thread;

        ProgressRecorder(List<String> indexes) {
            this.indexes = indexes;
        }

        void start() {
            if (indexes.isEmpty()) {
                available = false;
                return;
            }
            read();
            thread = new Thread(
                    () -> {
                        while (!stopped) {
                            read();
                            try {
                                Thread.sleep(PROGRESS_INTERVAL.toMillis());
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "kcscale-scale-progress");
            thread.setDaemon(true);
            thread.start();
        }

        private void read() {
            try {
                readings.add(new RebalancePause.Reading(clock.getAsLong(), indexCounter.indexTotal(indexes)));
            } catch (RuntimeException e) {
                available = false;
            }
        }

        boolean available() {
            return available;
        }

        /** Waits (bounded) for progress after convergence, then stops reading and measures. */
        OptionalDouble awaitResumeAndStop(long changeAt) {
            long convergedAt = clock.getAsLong();
            try {
                if (available && !readings.isEmpty()) {
                    Poll.untilTrue(
                            "the sink to resume after the change",
                            RESUME_WAIT,
                            PROGRESS_INTERVAL,
                            () -> resumedAfter(convergedAt),
                            () -> "no index operations since the tasks converged");
                }
            } catch (PollTimeoutException noLoad) {
                // measured below from what was read; an idle pipeline has no pause to report
            }
            stop();
            synchronized (readings) {
                return RebalancePause.seconds(new ArrayList<>(readings), changeAt);
            }
        }

        private boolean resumedAfter(long at) {
            synchronized (readings) {
                for (int i = 1; i < readings.size(); i++) {
                    if (readings.get(i).atMillis() > at
                            && readings.get(i).counter() > readings.get(i - 1).counter()) {
                        return true;
                    }
                }
                return false;
            }
        }

        void stop() {
            stopped = true;
            if (thread != null) {
                thread.interrupt();
            }
        }
    }
}
