package io.kcscale.scaler.checks;

import io.kcscale.scaler.checks.keys.DistinctCounter;
import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SampleBuilder;
import io.kcscale.scaler.model.TopicPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * A pipeline to run checks on, described field by field; every test changes what its rule looks at.
 * By default: sink {@code sink} reads topic {@code t} (20 partitions, 10 records/s each) with 3
 * RUNNING tasks into index {@code idx} (1 primary, 0 replicas, 1 data node), over a 10 s window.
 */
final class Fixture {

    String name = "sink";
    List<String> topics = List.of("t");
    Integer tasksMax = 3;
    Integer partitions = 20;
    /** Each topic's partitions for a sink of several (set {@link #topics} too); null: {@link #partitions} of the one topic. */
    Map<String, Integer> partitionsPerTopic;

    int tasksWanted = 3;
    /** Task id → its partitions; by default partitions dealt round-robin over 3 tasks. */
    Map<Integer, List<Integer>> assignment = roundRobin(20, 3);

    Map<Integer, String> taskStates = new TreeMap<>();
    Map<Integer, Double> appendPerPartition = uniform(20, 10);
    Double sinkPerSecond = 200.0;
    Long lag = 0L;
    boolean stable = true;
    List<String> reasons = List.of();
    boolean degraded;
    String index = "idx";
    /** The indexes of a sink of several (or of an alias), in place of {@code index}, when set. */
    List<PipelineSnapshot.Index> indexes;

    Integer primaryShards = 1;
    Integer replicas = 0;
    Integer dataNodes = 1;
    /** The window's samples: by default two, 10 s apart, each with offsets and the assignment. */
    List<PipelineSample> window;

    KeySample keys = keys(10_000, 0, 900, Map.of());
    /** One sample per topic, for a sink of several; when null, {@link #keys} is the one topic's. */
    List<KeySample> keysOfTopics;

    String keysUnavailable;
    Map<String, String> sinkConfig = new LinkedHashMap<>(Map.of(
            "topics",
            "t",
            "camel.sink.url",
            "elasticsearch-rest://local?hostAddresses=h:9200&operation=Index&indexName=idx"));
    String connectorState = "RUNNING";
    Map<Integer, String> taskTraces = new TreeMap<>();
    List<CheckSamples.Connector> otherConnectors = new ArrayList<>(List.of(new CheckSamples.Connector(
            "source",
            "source",
            "RUNNING",
            Map.of("kafka.topic", "t", "quickstart", "stock_trades", "schema.keyfield", "price"))));
    Map<String, String> workerConfig = Map.of();
    String groupAssignor = "range";
    String groupProtocol = "CLASSIC";
    Integer brokers = 1;
    /** Task id → its worker; a task not named runs on worker {@code w}. */
    Map<Integer, String> taskWorkers = new TreeMap<>();

    List<WorkerCpu> workerCpu;
    String workerCpuUnavailable = "not read in this fixture";
    Map<String, Long> unreachableWorkers = new TreeMap<>();
    PipelineSnapshot.DeadLetters deadLetters;
    Duration rebalanceDelay = Duration.ofMinutes(5);

    static Map<Integer, List<Integer>> roundRobin(int partitions, int tasks) {
        Map<Integer, List<Integer>> byTask = new TreeMap<>();
        for (int t = 0; t < tasks; t++) {
            byTask.put(t, new ArrayList<>());
        }
        for (int p = 0; p < partitions; p++) {
            byTask.get(p % tasks).add(p);
        }
        return byTask;
    }

    static Map<Integer, Double> uniform(int partitions, double perSecond) {
        Map<Integer, Double> rates = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            rates.put(p, perSecond);
        }
        return rates;
    }

    static Map<Integer, Double> rates(double... perPartition) {
        Map<Integer, Double> rates = new TreeMap<>();
        for (int p = 0; p < perPartition.length; p++) {
            rates.put(p, perPartition[p]);
        }
        return rates;
    }

    /** A key sample with exact counts; {@code fields} gives each field's distinct values. */
    static KeySample keys(long records, long nullKeys, long distinct, Map<String, Long> fields) {
        Map<String, DistinctCounter.Distinct> values = new LinkedHashMap<>();
        fields.forEach((f, n) -> values.put(f, new DistinctCounter.Distinct(n, true, n, n)));
        return new KeySample(
                "t",
                records,
                nullKeys,
                new DistinctCounter.Distinct(distinct, true, distinct, distinct),
                values,
                records,
                fields.isEmpty() ? null : fields.keySet().iterator().next(),
                20,
                20,
                500,
                "end",
                everyPartition(20));
    }

    /**
     * {@code tasks} tasks assigned by range over 20 partitions, asked to become {@code tasksWanted}, with keys
     * that reach only {@code withRecords}, one distinct key each, as the key sample finds them.
     */
    static Fixture recordsOnlyIn(List<Integer> withRecords, int tasks, int tasksWanted) {
        Fixture f = new Fixture();
        long distinct = withRecords.size();
        f.keys = new KeySample(
                "t",
                10_000,
                0,
                new DistinctCounter.Distinct(distinct, true, distinct, distinct),
                Map.of(),
                10_000,
                null,
                f.partitions,
                withRecords.size(),
                500,
                "end",
                withRecords);
        f.assignment = new TreeMap<>();
        for (int p = 0; p < f.partitions; p++) {
            f.assignment
                    .computeIfAbsent(
                            TaskPlacement.memberOrder(tasks).get(TaskPlacement.rangePosition(p, f.partitions, tasks)),
                            t -> new ArrayList<>())
                    .add(p);
        }
        f.tasksMax = tasks;
        f.tasksWanted = tasksWanted;
        f.appendPerPartition = uniform(f.partitions, 0);
        withRecords.forEach(p -> f.appendPerPartition.put(p, 10.0));
        return f;
    }

    /** The key sample's partitions with records, as in the topic with these partitions: 0 to partitions - 1. */
    static List<Integer> everyPartition(int partitions) {
        return IntStream.range(0, partitions).boxed().toList();
    }

    PipelineSnapshot snapshot() {
        List<PipelineSnapshot.Task> tasks = new ArrayList<>();
        String topic = topics.get(0);
        assignment.forEach((id, owned) -> {
            double rate = appendPerPartition == null
                    ? 0
                    : owned.stream()
                            .mapToDouble(p -> appendPerPartition.getOrDefault(p, 0.0))
                            .sum();
            tasks.add(PipelineSnapshot.Task.of(
                    id,
                    taskStates.getOrDefault(id, "RUNNING"),
                    taskWorkers.getOrDefault(id, "w"),
                    Map.of(topic, owned),
                    rate,
                    false,
                    null,
                    null));
        });
        Double append = appendPerPartition == null
                ? null
                : appendPerPartition.values().stream().mapToDouble(d -> d).sum();
        return new PipelineSnapshot(
                name,
                topics,
                tasksMax,
                partitions,
                partitionsPerTopic != null ? partitionsPerTopic : partitions == null ? null : Map.of(topic, partitions),
                groupAssignor,
                tasks,
                new PipelineSnapshot.Lag(
                        lag, Map.of(), Map.of(topic, Map.of()), null, null, null, List.of(), lag, null),
                PipelineSnapshot.Rates.of(
                        append,
                        sinkPerSecond,
                        sinkPerSecond,
                        appendPerPartition == null ? null : TopicPartition.onTopic(topic, appendPerPartition),
                        false),
                0.0,
                stable,
                reasons,
                indexes == null
                        ? new PipelineSnapshot.Elasticsearch(index, primaryShards, replicas, dataNodes, 0.0, 0)
                        : PipelineSnapshot.Elasticsearch.of(indexes, dataNodes, 0.0, 0),
                deadLetters,
                degraded,
                List.of(),
                unreachableWorkers,
                null,
                30,
                10_000);
    }

    CheckSamples samples() {
        return new CheckSamples(
                tasksWanted,
                window != null ? window : List.of(sample(0, assignment), sample(10_000, assignment)),
                keysOfTopics != null ? keysOfTopics : keys == null ? null : List.of(keys),
                keysUnavailable,
                sinkConfig,
                connectorState,
                taskTraces,
                otherConnectors,
                workerConfig,
                groupAssignor,
                groupProtocol,
                brokers,
                workerCpu,
                workerCpu == null ? workerCpuUnavailable : null,
                rebalanceDelay);
    }

    Finding run(Check check) {
        return check.check(snapshot(), samples());
    }

    /** A sample at {@code atMillis} with offsets for every partition and {@code byTask} as the group's assignment (null: unknown). */
    PipelineSample sample(long atMillis, Map<Integer, List<Integer>> byTask) {
        Map<TopicPartition, Long> offsets = new TreeMap<>();
        for (int p = 0; p < (partitions == null ? 0 : partitions); p++) {
            offsets.put(new TopicPartition(topics.get(0), p), atMillis);
        }
        Map<TopicPartition, Integer> owner = null;
        if (byTask != null) {
            owner = new TreeMap<>();
            for (Map.Entry<Integer, List<Integer>> t : byTask.entrySet()) {
                for (int p : t.getValue()) {
                    owner.put(new TopicPartition(topics.get(0), p), t.getKey());
                }
            }
        }
        return (index == null
                        ? SampleBuilder.at(atMillis)
                        : SampleBuilder.at(atMillis).index(index, 0L, primaryShards, replicas))
                .connector(name)
                .tasksMax(tasksMax)
                .topics(topics)
                .offsets(offsets)
                .assignment(owner)
                .group("STABLE", null)
                .elasticsearch(dataNodes, 0L, 0)
                .build();
    }
}
