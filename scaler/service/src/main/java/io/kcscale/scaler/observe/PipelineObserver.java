package io.kcscale.scaler.observe;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.model.SinkWrites;
import io.kcscale.scaler.model.TopicPartition;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.KafkaReadings;
import io.kcscale.scaler.ports.SinkClusterReadings;
import io.kcscale.scaler.ports.TaskMetricsReadings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Takes one {@link PipelineSample} of each sink connector from Kafka and Elasticsearch, given what
 * Connect said of them. A system that fails leaves its part of the sample null and says why in
 * {@code unreachable}: one system down never hides the others.
 */
public final class PipelineObserver {

    private final KafkaReadings kafka;
    private final SinkClusterReadings elasticsearch;
    private final SinkIndexes indexes;
    private final DeadLetterReasonReader deadLetterReasons;
    private final TaskMetricsReadings taskMetrics;
    private final LongSupplier clock;
    /** The last reason read per dead-letter topic: read again only when the topic grew, and not more often than this. */
    private final Map<String, KnownReason> knownReasons = new ConcurrentHashMap<>();

    static final long REASON_REREAD_MILLIS = 30_000;

    public PipelineObserver(
            KafkaReadings kafka,
            SinkClusterReadings elasticsearch,
            SinkIndexes indexes,
            DeadLetterReasonReader deadLetterReasons,
            TaskMetricsReadings taskMetrics,
            LongSupplier clock) {
        this.kafka = kafka;
        this.elasticsearch = elasticsearch;
        this.indexes = indexes;
        this.deadLetterReasons = deadLetterReasons;
        this.taskMetrics = taskMetrics;
        this.clock = clock;
    }

    /** Why the newest record of a dead-letter topic was written there, or empty when it holds none. */
    @FunctionalInterface
    public interface DeadLetterReasonReader {
        Optional<String> latest(String topic);
    }

    private record KnownReason(long total, String reason, long readAtMillis) {}

    /**
     * A sink connector as the round knows it: its config (the last known one when Connect did not answer), its status
     * (or null), and those of its workers that did not answer the probe, with since when (epoch millis).
     */
    public record Sink(Map<String, String> config, ConnectorStatus status, Map<String, Long> unreachableWorkers) {}

    /**
     * One sample of each sink connector, from one reading of Kafka and one of Elasticsearch for them all:
     * the requests are batched over the connectors' topics, groups and indexes, so a round costs a few
     * requests whatever the number of connectors.
     *
     * @param sinks         by connector name
     * @param connectError  why Connect did not answer, or null
     * @return by connector name, in the order of {@code sinks}
     */
    public Map<String, PipelineSample> sample(Map<String, Sink> sinks, String connectError) {
        long at = clock.getAsLong();
        Map<String, List<String>> topics = new LinkedHashMap<>();
        Map<String, List<String>> unreachable = new LinkedHashMap<>();
        Set<String> clusterTopics = null;
        String topicNamesError = null;
        for (Map.Entry<String, Sink> sink : sinks.entrySet()) {
            List<String> problems = new ArrayList<>();
            if (connectError != null) {
                problems.add(named("Kafka Connect", connectError));
            }
            Map<String, String> config = sink.getValue().config();
            List<String> own = SinkTarget.topics(config);
            if (own.isEmpty() && SinkTarget.topicsRegex(config).isPresent()) {
                if (clusterTopics == null && topicNamesError == null) {
                    try {
                        clusterTopics = kafka.topicNames();
                    } catch (RuntimeException e) {
                        topicNamesError = "Kafka: " + e.getMessage();
                    }
                }
                if (clusterTopics != null) {
                    own = SinkTarget.topics(config, clusterTopics);
                } else {
                    problems.add(topicNamesError);
                }
            }
            topics.put(sink.getKey(), own);
            unreachable.put(sink.getKey(), problems);
        }
        // the workers' metrics are read while Kafka and Elasticsearch are: a round waits for the slowest, not their sum
        Map<String, TaskMetricsReadings.Sink> readTasks = new LinkedHashMap<>();
        sinks.forEach((connector, sink) ->
                readTasks.put(connector, new TaskMetricsReadings.Sink(topics.get(connector), tasks(sink.status()))));
        TaskMetricsReadings.Pending workerMetrics = taskMetrics.start(readTasks);
        Set<String> sinkTopics = new TreeSet<>();
        Set<String> groups = new TreeSet<>();
        topics.forEach((connector, own) -> {
            if (!own.isEmpty()) {
                sinkTopics.addAll(own);
                groups.add(SinkTarget.consumerGroup(connector));
            }
        });
        Set<String> deadLetterTopics = new TreeSet<>();
        sinks.values().forEach(sink -> SinkTarget.deadLetterTopic(sink.config()).ifPresent(deadLetterTopics::add));
        knownReasons.keySet().retainAll(deadLetterTopics);
        Set<String> readTopics = new TreeSet<>(sinkTopics);
        readTopics.addAll(deadLetterTopics);
        Reading<KafkaReadings.Batch> kafkaReading =
                readTopics.isEmpty() ? null : Reading.of(() -> kafka.read(readTopics, groups));
        Map<String, List<String>> index = new LinkedHashMap<>();
        sinks.forEach(
                (connector, sink) -> index.put(connector, indexes.of(connector, sink.config(), topics.get(connector))));
        Set<String> allIndexes = new TreeSet<>();
        index.values().forEach(allIndexes::addAll);
        Reading<SinkClusterReadings.Batch> esReading =
                allIndexes.isEmpty() ? null : Reading.of(() -> elasticsearch.read(allIndexes));
        Map<String, PipelineSample.WorkerMetrics> published = workerMetrics.await();
        Map<String, PipelineSample> samples = new LinkedHashMap<>();
        sinks.forEach((connector, sink) -> samples.put(
                connector,
                sample(
                        at,
                        connector,
                        sink,
                        topics.get(connector),
                        index.get(connector),
                        kafkaReading,
                        esReading,
                        unreachable.get(connector),
                        published.get(connector))));
        return samples;
    }

    /** The tasks Connect reports, each with its worker; null when Connect did not answer. */
    private static List<PipelineSample.TaskState> tasks(ConnectorStatus status) {
        return status == null
                ? null
                : status.tasks().stream()
                        .map(t -> new PipelineSample.TaskState(t.id(), t.state(), t.workerId()))
                        .toList();
    }

    private PipelineSample sample(
            long at,
            String connector,
            Sink sink,
            List<String> topics,
            List<String> indexes,
            Reading<KafkaReadings.Batch> kafkaReading,
            Reading<SinkClusterReadings.Batch> esReading,
            List<String> unreachable,
            PipelineSample.WorkerMetrics workerMetrics) {
        Map<TopicPartition, Long> end = null;
        Map<TopicPartition, Long> committed = null;
        Map<TopicPartition, Integer> assignment = null;
        String groupState = null;
        String groupAssignor = null;
        String group = SinkTarget.consumerGroup(connector);
        // every topic or none: readings of some topics only would make a part of the lag look like the whole
        String reading = null;
        try {
            Map<TopicPartition, Long> allEnds = new TreeMap<>();
            Map<TopicPartition, Long> allCommitted = new TreeMap<>();
            Map<TopicPartition, Integer> owners = new TreeMap<>();
            for (String topic : topics) {
                reading = topic;
                KafkaReadings.Batch readings = kafkaReading.value();
                allEnds.putAll(TopicPartition.onTopic(topic, readings.endOffsets(topic)));
                allCommitted.putAll(TopicPartition.onTopic(topic, readings.committedOffsets(group, topic)));
                KafkaReadings.GroupView view = readings.describeGroup(group, topic);
                groupState = view.state();
                groupAssignor = view.assignor();
                view.clientIdByPartition()
                        .forEach((p, clientId) -> SinkTarget.taskOfClientId(clientId)
                                .ifPresent(task -> owners.put(new TopicPartition(topic, p), task)));
            }
            if (!topics.isEmpty()) {
                end = allEnds;
                committed = allCommitted;
                assignment = owners;
            }
        } catch (RuntimeException e) {
            groupState = null;
            groupAssignor = null;
            unreachable.add(named("Kafka", (topics.size() > 1 ? "topic " + reading + ": " : "") + e.getMessage()));
        }
        List<PipelineSample.IndexReading> indexReadings = new ArrayList<>();
        Integer dataNodes = null;
        Long writeRejected = null;
        Integer writeQueue = null;
        if (!indexes.isEmpty()) {
            try {
                SinkClusterReadings.Batch readings = esReading.value();
                for (String name : indexes) {
                    indexReadings.add(indexReading(readings, name));
                }
                dataNodes = readings.dataNodes();
                SinkClusterReadings.WritePressure pressure = readings.writePressure();
                writeRejected = pressure.rejected();
                writeQueue = pressure.queue();
            } catch (RuntimeException e) {
                unreachable.add(named("Elasticsearch", e.getMessage()));
                indexes.stream()
                        .skip(indexReadings.size())
                        .forEach(name -> indexReadings.add(
                                new PipelineSample.IndexReading(name, null, null, null, null, null, null, null)));
            }
        }
        ConnectorStatus status = sink.status();
        List<PipelineSample.TaskState> tasks = tasks(status);
        Integer tasksMax = parseTasksMax(sink.config().get("tasks.max"));
        PipelineSample.DeadLetterReading deadLetters = SinkTarget.deadLetterTopic(sink.config())
                .map(topic -> deadLetters(at, topic, kafkaReading))
                .orElse(null);
        return new PipelineSample(
                at,
                connector,
                status == null ? null : status.type(),
                tasksMax,
                topics,
                tasks,
                end,
                committed,
                assignment,
                groupState,
                groupAssignor,
                indexReadings,
                dataNodes,
                writeRejected,
                writeQueue,
                unreachable,
                Map.copyOf(sink.unreachableWorkers()),
                deadLetters,
                workerMetrics,
                SinkWrites.of(sink.config()));
    }

    /**
     * One index as read this round: its write index's counter and shards. A name that resolves to no write index (it does
     * not exist, an alias marks none) is read as that problem and the sink's other indexes are read still.
     */
    private static PipelineSample.IndexReading indexReading(SinkClusterReadings.Batch readings, String name) {
        SinkClusterReadings.WriteIndex write = readings.writeIndex(name);
        if (write.problem() != null) {
            return new PipelineSample.IndexReading(name, null, null, null, null, write.problem(), null, null);
        }
        SinkClusterReadings.IndexLayout layout = readings.indexLayout(write.index());
        return new PipelineSample.IndexReading(
                name,
                write.index(),
                readings.indexStats(write.index()).indexTotal(),
                layout.primaryShards(),
                layout.replicas(),
                null,
                layout.writeBlock(),
                layout.inactivePrimaries());
    }

    /**
     * The dead-letter topic's records and the latest reason. A topic not there yet (Connect creates it when a task
     * starts) reads as unknown (a null total), not as a system down; its reason is read again only once it grew.
     */
    private PipelineSample.DeadLetterReading deadLetters(
            long at, String topic, Reading<KafkaReadings.Batch> kafkaReading) {
        Long total = null;
        try {
            total = kafkaReading.value().endOffsets(topic).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
        } catch (RuntimeException e) {
            // unknown: Kafka's own trouble shows in the sink's topic reading
        }
        KnownReason known = knownReasons.get(topic);
        boolean grew = total != null && total > 0 && (known == null || total > known.total());
        if (grew && (known == null || at - known.readAtMillis() >= REASON_REREAD_MILLIS)) {
            try {
                known = new KnownReason(total, deadLetterReasons.latest(topic).orElse(null), at);
                knownReasons.put(topic, known);
            } catch (RuntimeException e) {
                // the count still tells that records are dead-lettered; the reason is tried again next round
            }
        }
        return new PipelineSample.DeadLetterReading(topic, total, known == null ? null : known.reason());
    }

    /** A batched reading, or why it could not even be asked for (a client closed): every connector's part then fails with it. */
    private record Reading<T>(T readings, RuntimeException error) {

        static <T> Reading<T> of(Supplier<T> read) {
            try {
                return new Reading<>(read.get(), null);
            } catch (RuntimeException e) {
                return new Reading<>(null, e);
            }
        }

        T value() {
            if (error != null) {
                throw error;
            }
            return readings;
        }
    }

    /** The message, led by the system's name unless it already starts with it. */
    private static String named(String system, String message) {
        return message != null && message.startsWith(system) ? message : system + ": " + message;
    }

    private static Integer parseTasksMax(String value) {
        try {
            return value == null ? null : Integer.valueOf(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
