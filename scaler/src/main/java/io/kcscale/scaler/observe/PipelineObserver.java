package io.kcscale.scaler.observe;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.connect.ConnectorStatus;
import io.kcscale.scaler.elasticsearch.ElasticsearchObserver;
import io.kcscale.scaler.kafka.KafkaObserver;

/**
 * Takes one {@link PipelineSample} of a sink connector from Kafka and Elasticsearch, given what
 * Connect said of it. A system that fails leaves its part of the sample null and says why in
 * {@code unreachable}: one system down never hides the others.
 */
public final class PipelineObserver {

    private final KafkaObserver kafka;
    private final ElasticsearchObserver elasticsearch;
    private final SinkIndexes indexes;
    private final LongSupplier clock;

    public PipelineObserver(KafkaObserver kafka, ElasticsearchObserver elasticsearch, SinkIndexes indexes, LongSupplier clock) {
        this.kafka = kafka;
        this.elasticsearch = elasticsearch;
        this.indexes = indexes;
        this.clock = clock;
    }

    /**
     * @param config        the connector's config (the last known one when Connect did not answer)
     * @param status        its status, or null when Connect did not answer
     * @param connectError  why Connect did not answer, or null
     * @param unreachableWorkers the connector's workers that did not answer the probe, with since when (epoch millis)
     */
    public PipelineSample sample(String connector, Map<String, String> config, ConnectorStatus status, String connectError,
                                 Map<String, Long> unreachableWorkers) {
        long at = clock.getAsLong();
        List<String> unreachable = new ArrayList<>();
        if (connectError != null) {
            unreachable.add(named("Kafka Connect", connectError));
        }
        List<String> topics = SinkTarget.topics(config);
        if (topics.isEmpty() && SinkTarget.topicsRegex(config).isPresent()) {
            try {
                topics = SinkTarget.topics(config, kafka.topicNames());
            } catch (RuntimeException e) {
                unreachable.add("Kafka: " + e.getMessage());
            }
        }
        Map<Integer, Long> end = null;
        Map<Integer, Long> committed = null;
        Map<Integer, Integer> assignment = null;
        String groupState = null;
        if (!topics.isEmpty()) {
            String topic = topics.get(0);
            String group = SinkTarget.consumerGroup(connector);
            try {
                end = kafka.endOffsets(topic);
                committed = kafka.committedOffsets(group, topic);
                KafkaObserver.GroupView view = kafka.describeGroup(group, topic);
                groupState = view.state();
                assignment = new TreeMap<>();
                for (Map.Entry<Integer, String> owner : view.clientIdByPartition().entrySet()) {
                    Optional<Integer> task = SinkTarget.taskOfClientId(owner.getValue());
                    if (task.isPresent()) {
                        assignment.put(owner.getKey(), task.get());
                    }
                }
            } catch (RuntimeException e) {
                unreachable.add(named("Kafka", e.getMessage()));
            }
        }
        Optional<String> index = indexes.of(connector, config);
        Long indexTotal = null;
        Integer shards = null;
        Integer replicas = null;
        Integer dataNodes = null;
        Long writeRejected = null;
        Integer writeQueue = null;
        if (index.isPresent()) {
            try {
                indexTotal = elasticsearch.indexStats(index.get()).indexTotal();
                ElasticsearchObserver.IndexLayout layout = elasticsearch.indexLayout(index.get());
                shards = layout.primaryShards();
                replicas = layout.replicas();
                dataNodes = layout.dataNodes();
                ElasticsearchObserver.WritePressure pressure = elasticsearch.writePressure();
                writeRejected = pressure.rejected();
                writeQueue = pressure.queue();
            } catch (RuntimeException e) {
                unreachable.add(named("Elasticsearch", e.getMessage()));
            }
        }
        List<PipelineSample.TaskState> tasks = status == null ? null : status.tasks().stream()
                .map(t -> new PipelineSample.TaskState(t.id(), t.state(), t.workerId())).toList();
        Integer tasksMax = parseTasksMax(config.get("tasks.max"));
        return new PipelineSample(at, connector, status == null ? null : status.type(), tasksMax, topics, tasks,
                end, committed, assignment, groupState, index.orElse(null), indexTotal, shards, replicas, dataNodes,
                writeRejected, writeQueue, unreachable, Map.copyOf(unreachableWorkers));
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
