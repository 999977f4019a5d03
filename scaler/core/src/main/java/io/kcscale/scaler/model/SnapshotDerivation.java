package io.kcscale.scaler.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Derives a {@link PipelineSnapshot} from the samples of a window: append and index rates from counter deltas between
 * the oldest and newest sample that carry each counter; the sink's rates, progress and verdicts from each task's commits
 * (a history that reaches beyond the window, read by {@link CommitProgress}), so that they hold at any commit interval;
 * lag, what of it is not consumed yet and Little's-law latency from the newest sample; each partition's lag age (from an
 * end-offset history that may reach beyond the window); and the {@code stable} verdict with its reasons. Pure: no clock,
 * no I/O.
 */
public final class SnapshotDerivation {

    /** Connect's state of a paused task. */
    private static final String PAUSED = "PAUSED";

    private SnapshotDerivation() {}

    /**
     * The write requests Elasticsearch's nodes held queued at every reading of the window: the least of the readings.
     * A single reading catches a queue of one or two on any node that is merely busy (measured on the local node while
     * several sinks wrote to it), which would read as a sink pushing back; a queue the whole window long is one. So are
     * two readings a sample apart, which a scaler just started holds (a queue of one at both, read in a CI run): the
     * readings must span half the window. Null until they do, and when the newest sample has no reading.
     */
    static Integer queuedThroughout(List<PipelineSample> samples, double windowSeconds) {
        if (samples.get(samples.size() - 1).writeQueue() == null) {
            return null;
        }
        List<PipelineSample> read =
                samples.stream().filter(s -> s.writeQueue() != null).toList();
        long spanMillis = read.get(read.size() - 1).atMillis() - read.get(0).atMillis();
        if (spanMillis < windowSeconds * 1_000 / 2) {
            return null;
        }
        return read.stream()
                .map(PipelineSample::writeQueue)
                .min(Integer::compare)
                .orElseThrow();
    }

    /** A snapshot whose lag ages and commits are read from the window's samples alone. */
    public static PipelineSnapshot derive(List<PipelineSample> samples, double windowSeconds) {
        return derive(samples, windowSeconds, EndOffsetHistory.of(samples), CommitHistory.of(samples));
    }

    /**
     * @param samples oldest first, all of one connector; not empty
     * @param history the connector's end offsets, up to the newest sample
     * @param commits the sink group's committed offsets, up to the newest sample
     */
    public static PipelineSnapshot derive(
            List<PipelineSample> samples, double windowSeconds, EndOffsetHistory history, CommitHistory commits) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("a snapshot needs at least one sample");
        }
        PipelineSample latest = samples.get(samples.size() - 1);
        List<String> reasons = new ArrayList<>();

        boolean severalTopics = latest.topics().size() > 1;
        Map<TopicPartition, Long> lagPerPartition = lagPerPartition(latest);
        // each partition's histories, read once: every task and partition below looks at them several times
        Map<TopicPartition, List<CommitHistory.Point>> moves = new HashMap<>();
        Map<TopicPartition, List<LagAge.Point>> ends = new HashMap<>();
        if (lagPerPartition != null) {
            lagPerPartition.keySet().forEach(p -> {
                moves.put(p, commits.of(p));
                ends.put(p, history.of(p));
            });
        }
        Map<Integer, CommitProgress.Task> progress = lagPerPartition == null
                ? Map.of()
                : CommitProgress.read(moves, lagPerPartition, latest.assignment(), latest.atMillis(), windowSeconds);
        Map<TopicPartition, Double> sinkPerPartition = sinkPerPartition(progress);
        Map<TopicPartition, Double> appendPerPartition = perPartitionRates(samples, PipelineSample::endOffsets);
        List<Stall> stalls = new ArrayList<>();
        Map<TopicPartition, Long> positions = lagPerPartition == null ? null : positions(latest, lagPerPartition, ends);
        PipelineSnapshot.Lag lag = PipelineSnapshot.Lag.of(
                lagPerPartition,
                partitionLags(latest, lagPerPartition, ends, moves, progress, positions, windowSeconds, stalls),
                severalTopics,
                positions == null ? PipelineSnapshot.Lag.FROM_COMMITS : PipelineSnapshot.Lag.FROM_POSITIONS);
        TaskCapacities.Result capacities = TaskCapacities.of(samples);

        Delta<Map<TopicPartition, Long>> committed = delta(samples, PipelineSample::committedOffsets);
        Double sinkRate = sinkPerPartition == null
                ? null
                : sinkPerPartition.values().stream().mapToDouble(d -> d).sum();
        Double appendRate = appendPerPartition == null
                ? null
                : appendPerPartition.values().stream().mapToDouble(d -> d).sum();
        List<PipelineSnapshot.Index> indexes = indexes(samples, latest);
        Double indexRate = indexRate(indexes);
        Delta<Long> rejected = delta(samples, PipelineSample::writeRejected);
        Double rejections = rejected == null ? null : Math.max(0, rejected.newest - rejected.oldest) / rejected.seconds;

        List<PipelineSnapshot.Task> tasks = tasks(latest, sinkPerPartition, progress, capacities, severalTopics);
        Double latency = latency(lag.unconsumed(), sinkRate);

        if (committed == null) {
            reasons.add("warming up: the window holds fewer than 2 samples of the sink group's offsets");
        } else if (sinkPerPartition == null) {
            // a task stuck since its first commit (a closed index) says so here until its commits can tell
            reasons.add("warming up: a task with lag has not committed twice since the scaler began reading"
                    + " (Connect commits every offset.flush.interval.ms, 60 s by default); one that commits nothing"
                    + " reads stalled once the window plus its interval, a minute until it has one, has passed");
        }
        latest.unreachable().forEach(u -> reasons.add("unreachable: " + u));
        if (latest.topics().isEmpty() && latest.unreachable().isEmpty()) {
            reasons.add("the sink reads no topic: its topics.regex matches none of the cluster's topics");
        }
        Map<String, Long> unreachableWorkers = secondsUnanswered(latest);
        unreachableWorkers.forEach((worker, seconds) -> reasons.add(workerReason(worker, seconds, latest.tasks())));
        if (latest.tasks() != null) {
            if (latest.tasks().isEmpty()) {
                reasons.add("the connector has no tasks");
            }
            tasks.stream()
                    .filter(t ->
                            !"RUNNING".equals(t.state()) && !PipelineSnapshot.Task.WORKER_UNREACHABLE.equals(t.state()))
                    .forEach(t -> reasons.add("task " + t.id() + " is " + t.state()));
        }
        if (rebalancedWithin(samples)) {
            reasons.add("the sink group rebalanced within the window (its partition assignment changed)");
        }
        if (latest.groupState() != null && !"STABLE".equalsIgnoreCase(latest.groupState())) {
            reasons.add("the sink group is " + latest.groupState());
        }
        PipelineSnapshot.DeadLetters deadLetters = deadLetters(samples, latest);
        if (deadLetters != null && deadLetters.appending()) {
            reasons.add(String.format(
                    Locale.ROOT,
                    "records dead-lettered to %s within the window (%.2f/s)%s",
                    deadLetters.topic(),
                    deadLetters.appendPerSecond(),
                    deadLetters.latestReason() == null ? "" : "; the latest because: " + deadLetters.latestReason()));
        }
        stallReasons(stalls, severalTopics).forEach(reasons::add);
        indexes.stream().filter(i -> i.writeBlock() != null).forEach(i -> reasons.add(writeBlockReason(i)));
        indexes.stream()
                .filter(i -> i.inactivePrimaries() != null && i.inactivePrimaries() > 0)
                .forEach(i -> reasons.add(inactivePrimariesReason(i)));

        return new PipelineSnapshot(
                latest.connector(),
                latest.topics(),
                latest.tasksMax(),
                latest.endOffsets() == null ? null : latest.endOffsets().size(),
                partitionsPerTopic(latest),
                latest.groupAssignor() == null || latest.groupAssignor().isBlank() ? null : latest.groupAssignor(),
                tasks,
                lag,
                PipelineSnapshot.Rates.of(appendRate, sinkRate, indexRate, appendPerPartition, severalTopics),
                latency,
                reasons.isEmpty(),
                reasons,
                PipelineSnapshot.Elasticsearch.of(
                        indexes, latest.dataNodes(), rejections, queuedThroughout(samples, windowSeconds)),
                deadLetters,
                !latest.unreachable().isEmpty(),
                latest.unreachable(),
                unreachableWorkers,
                commitInterval(progress),
                capacities.pooled(),
                capacities.busyMean(),
                windowSeconds,
                latest.atMillis());
    }

    /**
     * Each partition's unconsumed records from its task's consumer's position, where the workers publish every
     * partition's ({@code records-lag}); null when any partition has none, so that a part never passes for the whole.
     * A position is as of its consumer's last {@code poll()}: what was appended since (its task busy in {@code put()})
     * is added from the end offsets. Never more than the committed lag, which the position cannot trail.
     */
    private static Map<TopicPartition, Long> positions(
            PipelineSample latest, Map<TopicPartition, Long> lag, Map<TopicPartition, List<LagAge.Point>> ends) {
        if (latest.workerMetrics() == null || latest.assignment() == null || lag.isEmpty()) {
            return null;
        }
        Map<TopicPartition, Long> unconsumed = new TreeMap<>();
        for (Map.Entry<TopicPartition, Long> p : lag.entrySet()) {
            Integer task = latest.assignment().get(p.getKey());
            PipelineSample.TaskMetrics m =
                    task == null ? null : latest.workerMetrics().tasks().get(task);
            Long behind =
                    m == null || m.recordsLag() == null ? null : m.recordsLag().get(p.getKey());
            if (behind == null) {
                return null;
            }
            long appendedSincePoll = 0;
            if (m.lastPollSecondsAgo() != null && Double.isFinite(m.lastPollSecondsAgo())) {
                List<LagAge.Point> history = ends.get(p.getKey());
                long polledAt = latest.atMillis() - Math.round(m.lastPollSecondsAgo() * 1000);
                Long endThen = CommitProgress.endAt(history, polledAt);
                Long endNow = CommitProgress.endAt(history, latest.atMillis());
                appendedSincePoll = endThen == null || endNow == null ? 0 : Math.max(0, endNow - endThen);
            }
            unconsumed.put(p.getKey(), Math.min(p.getValue(), Math.max(0, behind) + appendedSincePoll));
        }
        return unconsumed;
    }

    /**
     * Each index of the newest sample with its write index's rate over the samples that read the same write index: after
     * a rollover the rate is the new write index's, from the first sample that read it.
     */
    private static List<PipelineSnapshot.Index> indexes(List<PipelineSample> samples, PipelineSample latest) {
        List<PipelineSnapshot.Index> indexes = new ArrayList<>();
        for (PipelineSample.IndexReading now : latest.indexes()) {
            Double rate = null;
            if (now.writeIndex() != null) {
                Delta<Long> indexed = delta(
                        samples,
                        s -> s.indexes().stream()
                                .filter(i -> i.name().equals(now.name())
                                        && now.writeIndex().equals(i.writeIndex()))
                                .map(PipelineSample.IndexReading::indexTotal)
                                .filter(Objects::nonNull)
                                .findFirst()
                                .orElse(null));
                rate = indexed == null ? null : Math.max(0, indexed.newest - indexed.oldest) / indexed.seconds;
            }
            indexes.add(new PipelineSnapshot.Index(
                    now.name(),
                    now.writeIndex(),
                    now.primaryShards(),
                    now.replicas(),
                    rate,
                    now.problem(),
                    now.writeBlock(),
                    now.inactivePrimaries()));
        }
        return indexes;
    }

    /**
     * Why an index that refuses writes makes the pipeline unstable: the sink can write nothing there, so its lag grows
     * whatever its tasks, and more of them would only rebalance the group.
     */
    static String writeBlockReason(PipelineSnapshot.Index index) {
        String which = which(index);
        String cause = index.writeBlock().equals("index.blocks.read_only_allow_delete")
                ? ", which Elasticsearch sets when a node's disk passes its flood-stage watermark: free disk space, then"
                        + " lift it"
                : ": lift it";
        return which + " refuses writes: its " + index.writeBlock() + " is true" + cause + " (PUT " + index.writeIndex()
                + "/_settings {\"" + index.writeBlock() + "\": null}); more tasks would not help";
    }

    /**
     * Why a write index with primaries that are not active makes the pipeline unstable: writes to those shards wait for
     * them and then fail, whatever the tasks.
     */
    static String inactivePrimariesReason(PipelineSnapshot.Index index) {
        return which(index) + " is red: " + index.inactivePrimaries() + " of its " + index.primaryShards()
                + " primary shards are not active (unassigned or starting), so writes to them wait and then fail; GET"
                + " _cluster/allocation/explain says why; more tasks would not help";
    }

    private static String which(PipelineSnapshot.Index index) {
        return index.writeIndex().equals(index.name())
                ? "index " + index.name()
                : "index " + index.writeIndex() + " (the write index of " + index.name() + ")";
    }

    /**
     * The sum of the indexes' rates; null while one that can be read has none yet (a part would pass for the whole). An
     * index that cannot be read (it does not exist yet) adds nothing.
     */
    private static Double indexRate(List<PipelineSnapshot.Index> indexes) {
        List<PipelineSnapshot.Index> readable =
                indexes.stream().filter(i -> i.problem() == null).toList();
        if (readable.isEmpty() || readable.stream().anyMatch(i -> i.indexPerSecond() == null)) {
            return null;
        }
        return readable.stream()
                .mapToDouble(PipelineSnapshot.Index::indexPerSecond)
                .sum();
    }

    /** The dead-letter topic's append rate over the window and its latest reason; null for a sink without one. */
    private static PipelineSnapshot.DeadLetters deadLetters(List<PipelineSample> samples, PipelineSample latest) {
        if (latest.deadLetters() == null) {
            return null;
        }
        Delta<Long> appended = delta(
                samples, s -> s.deadLetters() == null ? null : s.deadLetters().total());
        Double rate = appended == null ? null : Math.max(0, appended.newest - appended.oldest) / appended.seconds;
        return new PipelineSnapshot.DeadLetters(
                latest.deadLetters().topic(),
                rate,
                latest.deadLetters().total(),
                latest.deadLetters().latestReason());
    }

    /** Little's law: the average time a record waits, lag / throughput. Unknown when nothing is consumed yet lag remains. */
    static Double latency(Long lag, Double sinkRate) {
        if (lag == null || sinkRate == null) {
            return null;
        }
        if (lag == 0) {
            return 0.0;
        }
        return sinkRate > 0 ? lag / sinkRate : null;
    }

    /**
     * A Connect sink group starts at the earliest offset, so a partition it has never committed lags
     * by its whole end offset (exact while retention has not deleted the log's head).
     */
    private static Map<TopicPartition, Long> lagPerPartition(PipelineSample s) {
        if (s.endOffsets() == null || s.committedOffsets() == null) {
            return null;
        }
        Map<TopicPartition, Long> lag = new TreeMap<>();
        s.endOffsets()
                .forEach((p, end) ->
                        lag.put(p, Math.max(0, end - s.committedOffsets().getOrDefault(p, 0L))));
        return lag;
    }

    /**
     * Each partition's lag with its age, what of it is not consumed yet, and its verdict, in partition order; empty when
     * the lag is unknown. Each stalled partition is added to {@code stalls}.
     */
    private static List<PipelineSnapshot.PartitionLag> partitionLags(
            PipelineSample latest,
            Map<TopicPartition, Long> lag,
            Map<TopicPartition, List<LagAge.Point>> ends,
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            Map<Integer, CommitProgress.Task> progress,
            Map<TopicPartition, Long> positions,
            double windowSeconds,
            List<Stall> stalls) {
        if (lag == null) {
            return List.of();
        }
        long now = latest.atMillis();
        Map<TopicPartition, CommitProgress.Task> taskOf = new TreeMap<>();
        progress.values().forEach(t -> t.partitions().forEach(p -> taskOf.put(p, t)));
        // Connect says so at once: a paused task consumes nothing, whatever its last commit held
        Set<Integer> paused = latest.tasks() == null
                ? Set.of()
                : latest.tasks().stream()
                        .filter(t -> PAUSED.equals(t.state()))
                        .map(PipelineSample.TaskState::id)
                        .collect(Collectors.toSet());
        Map<TopicPartition, Boolean> caughtUp = new TreeMap<>();
        lag.forEach((p, records) -> {
            CommitProgress.Task task = taskOf.get(p);
            CommitHistory.Point last = task.lastCommit();
            Long endBeforeLast = last == null ? null : CommitProgress.endAt(ends.get(p), last.previousSampleMillis());
            // a task that stopped committing is not caught up with what arrived since
            caughtUp.put(
                    p,
                    records == 0
                            || (!paused.contains(task.id())
                                    && task.progress() != CommitProgress.Progress.STOPPED
                                    && endBeforeLast != null
                                    && latest.committedOffsets().getOrDefault(p, 0L) >= endBeforeLast));
        });
        // which way the lag goes is the task's: it drains its partitions in turns, so one of them grows between two
        // commits while the task's lag falls
        Map<Integer, Long> lagAtLast = new TreeMap<>();
        Map<Integer, Long> lagAtBefore = new TreeMap<>();
        progress.values().forEach(t -> {
            lagAtLast.put(t.id(), taskLagAt(t, ends, moves, t.lastCommit()));
            lagAtBefore.put(t.id(), taskLagAt(t, ends, moves, t.commitBeforeLast()));
        });
        List<PipelineSnapshot.PartitionLag> rows = new ArrayList<>();
        lag.forEach((p, records) -> {
            long committed = latest.committedOffsets().getOrDefault(p, 0L);
            LagAge.Age age = LagAge.of(ends.get(p), committed, now).orElse(null);
            Boolean owned =
                    latest.assignment() == null ? null : latest.assignment().containsKey(p);
            CommitProgress.Task task = taskOf.get(p);
            // a task that kept up with a partition's traffic over its last commit interval has time to spare: it is not
            // cycling through a backlog
            boolean busy = task.partitions().stream()
                    .noneMatch(q -> caughtUp.get(q) && arrivedOverLastInterval(task, ends.get(q)));
            Stall stall = caughtUp.get(p)
                    ? null
                    : stall(
                            p,
                            records,
                            age == null ? null : age.seconds(),
                            task,
                            paused.contains(task.id()),
                            busy,
                            ends,
                            moves,
                            now,
                            windowSeconds);
            if (stall != null && !Boolean.FALSE.equals(owned)) {
                stalls.add(stall);
            }
            LagVerdict verdict = LagVerdict.of(
                    owned,
                    records,
                    caughtUp.get(p),
                    stall != null,
                    task.progress() != CommitProgress.Progress.UNKNOWN,
                    lagAtLast.get(task.id()),
                    lagAtBefore.get(task.id()));
            long unconsumed;
            Double unconsumedSeconds;
            if (positions != null) {
                unconsumed = positions.get(p);
                long endNow = latest.endOffsets().get(p);
                unconsumedSeconds = unconsumed == 0
                        ? Double.valueOf(0.0)
                        : LagAge.of(ends.get(p), endNow - unconsumed, now)
                                .map(LagAge.Age::seconds)
                                .orElse(null);
            } else {
                Double rate = task.rates() == null ? null : task.rates().get(p);
                double uncommitted = rate == null ? 0 : task.uncommittedSeconds(now);
                unconsumed = Math.max(0, records - Math.round(rate == null ? 0 : rate * uncommitted));
                unconsumedSeconds =
                        age == null ? null : unconsumed == 0 ? 0.0 : Math.max(0, age.seconds() - uncommitted);
            }
            rows.add(new PipelineSnapshot.PartitionLag(
                    p.topic(),
                    p.partition(),
                    records,
                    age == null ? null : age.seconds(),
                    age != null && age.lowerBound(),
                    verdict,
                    unconsumed,
                    unconsumedSeconds));
        });
        return rows;
    }

    /**
     * Whether records arrived in a partition over its task's last commit interval, up to what its last commit could
     * cover (the sample before it): records that arrive after a commit prove nothing of the time the task had.
     */
    private static boolean arrivedOverLastInterval(CommitProgress.Task task, List<LagAge.Point> ends) {
        CommitHistory.Point last = task.lastCommit();
        CommitHistory.Point before = task.commitBeforeLast();
        if (last == null || before == null) {
            return false;
        }
        Long endThen = CommitProgress.endAt(ends, before.previousSampleMillis());
        Long endNow = CommitProgress.endAt(ends, last.previousSampleMillis());
        return endThen != null && endNow != null && endNow > endThen;
    }

    /** Why a partition with lag does not move. */
    private enum StallKind {
        /** Connect reports its task PAUSED. */
        TASK_PAUSED,
        /** Its task commits nothing. */
        TASK_STOPPED,
        /** Its task keeps another partition with traffic caught up, and leaves this one. */
        LEFT_BEHIND,
        /** Its busy task consumed more than its whole backlog from its other partitions without taking from this one. */
        PASSED_OVER
    }

    /**
     * A partition with lag that does not move: {@code waited} against {@code allowed} in seconds, or, when passed over,
     * in records its task consumed elsewhere.
     */
    private record Stall(TopicPartition partition, StallKind kind, double waited, double allowed) {}

    /**
     * Whether a partition stalls; null when it does not, or cannot be judged yet. A partition with lag whose task Connect
     * reports PAUSED stalls at once: nothing consumes it, and its commits would say so only a window and an interval
     * later (a minute and a half at Connect's default interval). Otherwise its oldest unconsumed record may wait
     * the window plus one commit interval while its task commits nothing, or while its task keeps another partition with
     * traffic caught up (it has time to spare); judged on the record's age, so that records that arrived after a quiet
     * spell do not read as stalled before the next commit. A busy task drains a few partitions at a time, at a rate that
     * changes (a cold or a crowded worker): its partition stalls only once the task consumed, from its others, more than
     * its whole backlog as it stood when this partition last moved, plus one commit interval's worth, without taking
     * from it; counted in records, so a slower spell of the task does not read as a stall.
     */
    private static Stall stall(
            TopicPartition p,
            long records,
            Double ageSeconds,
            CommitProgress.Task task,
            boolean paused,
            boolean busy,
            Map<TopicPartition, List<LagAge.Point>> ends,
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            long now,
            double windowSeconds) {
        if (records == 0 || task.id() == CommitProgress.UNOWNED) {
            return null;
        }
        double allowedSeconds = windowSeconds + task.assumedInterval();
        Long movedAt = CommitProgress.lastMovedAt(moves.get(p));
        double waited = ageSeconds != null ? ageSeconds : movedAt == null ? 0 : (now - movedAt) / 1000.0;
        if (paused) {
            return new Stall(p, StallKind.TASK_PAUSED, waited, 0);
        }
        if (task.progress() == CommitProgress.Progress.STOPPED) {
            return waited > allowedSeconds ? new Stall(p, StallKind.TASK_STOPPED, waited, allowedSeconds) : null;
        }
        if (task.progress() != CommitProgress.Progress.PROGRESSING) {
            return null;
        }
        if (!busy) {
            return waited > allowedSeconds ? new Stall(p, StallKind.LEFT_BEHIND, waited, allowedSeconds) : null;
        }
        Double rate = task.rate();
        if (rate == null || movedAt == null || now - movedAt <= allowedSeconds * 1000) {
            return null;
        }
        long consumed = 0;
        long backlog = 0;
        for (TopicPartition q : task.partitions()) {
            List<CommitHistory.Point> taken = moves.get(q);
            Long then = CommitProgress.offsetAt(taken, movedAt);
            Long nowOffset = CommitProgress.offsetAt(taken, now);
            Long endThen = CommitProgress.endAt(ends.get(q), movedAt);
            if (then == null || nowOffset == null) {
                continue;
            }
            long from = then == CommitHistory.NONE ? 0 : then;
            consumed += nowOffset == CommitHistory.NONE ? 0 : Math.max(0, nowOffset - from);
            backlog += endThen == null ? 0 : Math.max(0, endThen - from);
        }
        double allowedRecords = backlog + rate * task.assumedInterval();
        return consumed > allowedRecords ? new Stall(p, StallKind.PASSED_OVER, consumed, allowedRecords) : null;
    }

    /** One line per kind of stall, naming the partitions and the worst case. */
    private static List<String> stallReasons(List<Stall> stalls, boolean severalTopics) {
        List<String> reasons = new ArrayList<>();
        for (StallKind k : StallKind.values()) {
            List<Stall> kind = stalls.stream().filter(s -> s.kind() == k).toList();
            if (kind.isEmpty()) {
                continue;
            }
            Stall worst = kind.stream()
                    .max((x, y) -> Double.compare(x.waited() - x.allowed(), y.waited() - y.allowed()))
                    .orElseThrow();
            Object partitions =
                    TopicPartition.named(kind.stream().map(Stall::partition).toList(), severalTopics);
            reasons.add(
                    switch (k) {
                        case TASK_PAUSED ->
                            String.format(
                                    Locale.ROOT,
                                    "partitions %s have lag %.0f s old and their tasks are PAUSED: nothing consumes them"
                                            + " until the connector is resumed",
                                    partitions,
                                    worst.waited());
                        case TASK_STOPPED ->
                            String.format(
                                    Locale.ROOT,
                                    "partitions %s have lag %.0f s old and their tasks committed nothing for longer than the"
                                            + " window plus one commit interval (%.0f s): paused or stuck",
                                    partitions,
                                    worst.waited(),
                                    worst.allowed());
                        case LEFT_BEHIND ->
                            String.format(
                                    Locale.ROOT,
                                    "partitions %s have lag %.0f s old while their tasks keep other partitions caught up"
                                            + " (more than the window plus one commit interval, %.0f s)",
                                    partitions,
                                    worst.waited(),
                                    worst.allowed());
                        case PASSED_OVER ->
                            String.format(
                                    Locale.ROOT,
                                    "partitions %s did not move while their tasks consumed %.0f records from their others,"
                                            + " more than their whole backlog when these last moved (%.0f with one commit"
                                            + " interval's worth)",
                                    partitions,
                                    worst.waited(),
                                    worst.allowed());
                    });
        }
        return reasons;
    }

    /** The task's lag over its partitions when it committed at {@code commit}; null without one or before its history. */
    private static Long taskLagAt(
            CommitProgress.Task task,
            Map<TopicPartition, List<LagAge.Point>> ends,
            Map<TopicPartition, List<CommitHistory.Point>> moves,
            CommitHistory.Point commit) {
        if (commit == null) {
            return null;
        }
        long total = 0;
        for (TopicPartition q : task.partitions()) {
            Long end = CommitProgress.endAt(ends.get(q), commit.atMillis());
            Long committed = CommitProgress.offsetAt(moves.get(q), commit.atMillis());
            if (end == null || committed == null) {
                return null;
            }
            total += Math.max(0, end - (committed == CommitHistory.NONE ? 0 : committed));
        }
        return total;
    }

    /** Each owned partition's rate from its task's commits; null while a task with lag has none yet. */
    private static Map<TopicPartition, Double> sinkPerPartition(Map<Integer, CommitProgress.Task> progress) {
        if (progress.isEmpty()) {
            return null;
        }
        Map<TopicPartition, Double> rates = new TreeMap<>();
        for (CommitProgress.Task t : progress.values()) {
            if (t.rates() == null) {
                return null;
            }
            rates.putAll(t.rates());
        }
        return rates;
    }

    /** The median of the tasks' commit intervals; null before any task committed twice. */
    private static Double commitInterval(Map<Integer, CommitProgress.Task> progress) {
        double[] intervals = progress.values().stream()
                .map(CommitProgress.Task::intervalSeconds)
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .sorted()
                .toArray();
        return intervals.length == 0 ? null : Median.ofSorted(intervals);
    }

    /** Partitions of each topic the sink reads, as the newest end offsets list them; null when unknown. */
    private static Map<String, Integer> partitionsPerTopic(PipelineSample latest) {
        if (latest.endOffsets() == null) {
            return null;
        }
        Map<String, Integer> counts = new TreeMap<>();
        latest.endOffsets().keySet().forEach(tp -> counts.merge(tp.topic(), 1, Integer::sum));
        return counts;
    }

    private static List<PipelineSnapshot.Task> tasks(
            PipelineSample latest,
            Map<TopicPartition, Double> sinkPerPartition,
            Map<Integer, CommitProgress.Task> progress,
            TaskCapacities.Result capacities,
            boolean severalTopics) {
        if (latest.tasks() == null) {
            return List.of();
        }
        Map<Integer, List<TopicPartition>> partitionsByTask = latest.assignment() == null
                ? Map.of()
                : latest.assignment().entrySet().stream()
                        .collect(Collectors.groupingBy(
                                Map.Entry::getValue,
                                TreeMap::new,
                                Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
        List<PipelineSnapshot.Task> tasks = new ArrayList<>();
        for (PipelineSample.TaskState t : latest.tasks()) {
            List<TopicPartition> partitions = partitionsByTask.getOrDefault(t.id(), List.of());
            Double rate = sinkPerPartition == null || latest.assignment() == null
                    ? null
                    : partitions.stream()
                            .mapToDouble(p -> sinkPerPartition.getOrDefault(p, 0.0))
                            .sum();
            String state = latest.unreachableWorkers().containsKey(t.workerId())
                    ? PipelineSnapshot.Task.WORKER_UNREACHABLE
                    : t.state();
            Map<String, List<Integer>> byTopic = new TreeMap<>();
            partitions.stream()
                    .sorted()
                    .forEach(tp -> byTopic.computeIfAbsent(tp.topic(), x -> new ArrayList<>())
                            .add(tp.partition()));
            CommitProgress.Task commits = progress.get(t.id());
            CommitHistory.Point last = commits == null ? null : commits.lastCommit();
            tasks.add(PipelineSnapshot.Task.of(
                    t.id(),
                    state,
                    t.workerId(),
                    byTopic,
                    rate,
                    severalTopics,
                    commits == null ? null : commits.intervalSeconds(),
                    last == null ? null : Math.max(0, latest.atMillis() - last.atMillis()) / 1000.0,
                    capacities.busy().get(t.id()),
                    capacities.perTask().get(t.id())));
        }
        return tasks;
    }

    /** Each unanswering worker with the whole seconds since the scaler first found it so, by worker id. */
    private static Map<String, Long> secondsUnanswered(PipelineSample latest) {
        Map<String, Long> seconds = new TreeMap<>();
        latest.unreachableWorkers()
                .forEach((worker, since) -> seconds.put(worker, Math.max(0, latest.atMillis() - since) / 1000));
        return seconds;
    }

    private static String workerReason(String worker, long seconds, List<PipelineSample.TaskState> tasks) {
        List<PipelineSample.TaskState> on = tasks == null
                ? List.of()
                : tasks.stream().filter(t -> worker.equals(t.workerId())).toList();
        return "worker " + worker + " has not answered for " + seconds + " s"
                + (on.isEmpty()
                        ? ""
                        : ": tasks "
                                + on.stream().map(PipelineSample.TaskState::id).toList() + " on it are "
                                + PipelineSnapshot.Task.WORKER_UNREACHABLE
                                + " (Connect reports "
                                + on.stream()
                                        .map(t -> "task " + t.id() + " " + t.state())
                                        .collect(Collectors.joining(", "))
                                + ") until Connect reassigns them");
    }

    /** Whether the sink group's partition assignment changed between samples of the window. */
    public static boolean rebalancedWithin(List<PipelineSample> samples) {
        Map<TopicPartition, Integer> previous = null;
        for (PipelineSample s : samples) {
            if (s.assignment() == null) {
                continue;
            }
            if (previous != null && !previous.equals(s.assignment())) {
                return true;
            }
            previous = s.assignment();
        }
        return false;
    }

    /**
     * Each partition's rate between the oldest and the newest sample that carry its offset: a group's first commits
     * inside the window still give a rate, not 0. Null when no partition's offset is in two samples at different times.
     */
    private static Map<TopicPartition, Double> perPartitionRates(
            List<PipelineSample> samples, Function<PipelineSample, Map<TopicPartition, Long>> offsets) {
        Map<TopicPartition, PipelineSample> first = new TreeMap<>();
        Map<TopicPartition, PipelineSample> last = new TreeMap<>();
        for (PipelineSample s : samples) {
            Map<TopicPartition, Long> o = offsets.apply(s);
            if (o != null) {
                o.keySet().forEach(p -> {
                    first.putIfAbsent(p, s);
                    last.put(p, s);
                });
            }
        }
        Map<TopicPartition, Double> rates = new TreeMap<>();
        first.forEach((p, oldest) -> {
            PipelineSample newest = last.get(p);
            if (newest.atMillis() > oldest.atMillis()) {
                long delta =
                        offsets.apply(newest).get(p) - offsets.apply(oldest).get(p);
                rates.put(p, Math.max(0, delta) / ((newest.atMillis() - oldest.atMillis()) / 1000.0));
            }
        });
        return rates.isEmpty() ? null : rates;
    }

    private record Delta<T>(T oldest, T newest, double seconds) {}

    /** The oldest and newest values of one counter in the window, if two samples at different times carry it. */
    private static <T> Delta<T> delta(List<PipelineSample> samples, Function<PipelineSample, T> counter) {
        PipelineSample first = null;
        PipelineSample last = null;
        for (PipelineSample s : samples) {
            if (counter.apply(s) != null) {
                if (first == null) {
                    first = s;
                }
                last = s;
            }
        }
        if (first == null || last.atMillis() <= first.atMillis()) {
            return null;
        }
        return new Delta<>(counter.apply(first), counter.apply(last), (last.atMillis() - first.atMillis()) / 1000.0);
    }
}
