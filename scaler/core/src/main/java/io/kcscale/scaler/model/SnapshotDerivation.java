package io.kcscale.scaler.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Derives a {@link PipelineSnapshot} from the samples of a window: rates from counter deltas
 * between the oldest and newest sample that carry each counter, lag and Little's-law latency from
 * the newest, each partition's lag age (from an end-offset history that may reach beyond the window) and
 * verdict, and the {@code stable} verdict with its reasons. Pure: no clock, no I/O.
 */
public final class SnapshotDerivation {

    private SnapshotDerivation() {}

    /** A snapshot whose lag ages are read from the window's samples alone. */
    public static PipelineSnapshot derive(List<PipelineSample> samples, double windowSeconds) {
        return derive(samples, windowSeconds, EndOffsetHistory.of(samples));
    }

    /**
     * @param samples oldest first, all of one connector; not empty
     * @param history the connector's end offsets, up to the newest sample
     */
    public static PipelineSnapshot derive(
            List<PipelineSample> samples, double windowSeconds, EndOffsetHistory history) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("a snapshot needs at least one sample");
        }
        PipelineSample latest = samples.get(samples.size() - 1);
        List<String> reasons = new ArrayList<>();

        boolean severalTopics = latest.topics().size() > 1;
        Map<TopicPartition, Long> lagPerPartition = lagPerPartition(latest);
        PipelineSnapshot.Lag lag = PipelineSnapshot.Lag.of(
                lagPerPartition, partitionLags(samples, lagPerPartition, history), severalTopics);
        Long lagTotal = lag.total();

        Delta<Map<TopicPartition, Long>> committed = delta(samples, PipelineSample::committedOffsets);
        Map<TopicPartition, Double> sinkPerPartition = perPartitionRates(samples, PipelineSample::committedOffsets);
        Double sinkRate = sinkPerPartition == null
                ? null
                : sinkPerPartition.values().stream().mapToDouble(d -> d).sum();
        Map<TopicPartition, Double> appendPerPartition = perPartitionRates(samples, PipelineSample::endOffsets);
        Double appendRate = appendPerPartition == null
                ? null
                : appendPerPartition.values().stream().mapToDouble(d -> d).sum();
        List<PipelineSnapshot.Index> indexes = indexes(samples, latest);
        Double indexRate = indexRate(indexes);
        Delta<Long> rejected = delta(samples, PipelineSample::writeRejected);
        Double rejections = rejected == null ? null : Math.max(0, rejected.newest - rejected.oldest) / rejected.seconds;

        List<PipelineSnapshot.Task> tasks = tasks(latest, sinkPerPartition, severalTopics);
        Double latency = latency(lagTotal, sinkRate);

        if (committed == null) {
            reasons.add("warming up: the window holds fewer than 2 samples of the sink group's offsets");
        } else if (sinkPerPartition == null) {
            reasons.add("warming up: the sink group committed no partition's offset in two samples of the window yet");
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
        List<TopicPartition> stalled = stalledPartitions(committed, lagPerPartition);
        if (!stalled.isEmpty()) {
            reasons.add("partitions " + TopicPartition.named(stalled, severalTopics)
                    + " have lag but their committed offsets did not advance within the window");
        }

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
                PipelineSnapshot.Elasticsearch.of(indexes, latest.dataNodes(), rejections, latest.writeQueue()),
                deadLetters,
                !latest.unreachable().isEmpty(),
                latest.unreachable(),
                unreachableWorkers,
                windowSeconds,
                latest.atMillis());
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
                    now.name(), now.writeIndex(), now.primaryShards(), now.replicas(), rate, now.problem()));
        }
        return indexes;
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

    /** Each partition's lag with its age and verdict, in partition order; empty when the lag is unknown. */
    private static List<PipelineSnapshot.PartitionLag> partitionLags(
            List<PipelineSample> samples, Map<TopicPartition, Long> lag, EndOffsetHistory history) {
        if (lag == null) {
            return List.of();
        }
        PipelineSample latest = samples.get(samples.size() - 1);
        List<PipelineSample> read = samples.stream()
                .filter(s -> s.endOffsets() != null && s.committedOffsets() != null && s.atMillis() < latest.atMillis())
                .toList();
        PipelineSample previous = read.isEmpty() ? null : read.get(read.size() - 1);
        PipelineSample oldest = read.isEmpty() ? null : read.get(0);
        List<PipelineSnapshot.PartitionLag> rows = new ArrayList<>();
        lag.forEach((p, records) -> {
            long committed = latest.committedOffsets().getOrDefault(p, 0L);
            LagAge.Age age =
                    LagAge.of(history.of(p), committed, latest.atMillis()).orElse(null);
            Boolean owned =
                    latest.assignment() == null ? null : latest.assignment().containsKey(p);
            Long oldestCommitted = oldest != null && oldest.endOffsets().containsKey(p)
                    ? oldest.committedOffsets().getOrDefault(p, 0L)
                    : null;
            Long previousEnd = previous == null ? null : previous.endOffsets().get(p);
            Long previousLag = previousEnd == null
                    ? null
                    : Math.max(0, previousEnd - previous.committedOffsets().getOrDefault(p, 0L));
            LagVerdict verdict = LagVerdict.of(owned, records, committed, previousEnd, previousLag, oldestCommitted);
            rows.add(new PipelineSnapshot.PartitionLag(
                    p.topic(),
                    p.partition(),
                    records,
                    age == null ? null : age.seconds(),
                    age != null && age.lowerBound(),
                    verdict));
        });
        return rows;
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
            PipelineSample latest, Map<TopicPartition, Double> sinkPerPartition, boolean severalTopics) {
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
            tasks.add(PipelineSnapshot.Task.of(t.id(), state, t.workerId(), byTopic, rate, severalTopics));
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

    private static List<TopicPartition> stalledPartitions(
            Delta<Map<TopicPartition, Long>> committed, Map<TopicPartition, Long> lag) {
        if (committed == null || lag == null) {
            return List.of();
        }
        List<TopicPartition> stalled = new ArrayList<>();
        lag.forEach((p, l) -> {
            if (l > 0 && Objects.equals(committed.oldest.get(p), committed.newest.get(p))) {
                stalled.add(p);
            }
        });
        return stalled;
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
