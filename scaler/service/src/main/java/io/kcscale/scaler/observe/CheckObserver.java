package io.kcscale.scaler.observe;

import io.kcscale.scaler.checks.CheckInput;
import io.kcscale.scaler.checks.CheckSamples;
import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.KafkaReadings;
import io.kcscale.scaler.ports.WorkerCpuReadings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads what the checks judge beyond the watcher's snapshot, and only what the checks run need: every connector's config
 * and status from Connect, the sink group's assignor and the broker count from Kafka, a key sample of the topic, the
 * worker's properties when the scaler was given them, and the workers' CPU from the sources the scaler was given. A
 * system that fails, or a part no check needs, is left null; nothing here judges.
 */
public final class CheckObserver {

    private final ConnectApi connect;
    private final KafkaReadings kafka;
    private final KeySampling sampler;
    private final PipelineWatcher watcher;
    private final Optional<Path> workerConfig;
    private final SinkIndexes indexes;
    private final Duration rebalanceDelay;
    private final WorkerCpuReadings cpu;

    /** @param rebalanceDelay what the scaler assumes of the workers' {@code scheduled.rebalance.max.delay.ms} */
    public CheckObserver(
            ConnectApi connect,
            KafkaReadings kafka,
            KeySampling sampler,
            PipelineWatcher watcher,
            WorkerCpuReadings cpu,
            Optional<Path> workerConfig,
            SinkIndexes indexes,
            Duration rebalanceDelay) {
        this.rebalanceDelay = rebalanceDelay;
        this.cpu = cpu;
        this.connect = connect;
        this.indexes = indexes;
        this.kafka = kafka;
        this.sampler = sampler;
        this.watcher = watcher;
        this.workerConfig = workerConfig;
    }

    /** @param needs what the checks to be run read beyond the snapshot */
    public CheckSamples observe(
            PipelineSnapshot snapshot, int tasksWanted, SampleBudget budget, Set<CheckInput> needs) {
        String name = snapshot.name();
        // the workers' CPU is read for the workers Connect lists for every connector
        Map<String, ConnectApi.ConnectorView> views =
                needs.contains(CheckInput.CONNECTORS) || needs.contains(CheckInput.WORKER_CPU) ? connectors() : null;
        ConnectApi.ConnectorView own = views == null ? null : views.get(name);
        List<CheckSamples.Connector> others = null;
        if (views != null) {
            others = new ArrayList<>();
            for (ConnectApi.ConnectorView v : views.values()) {
                if (!v.name().equals(name)) {
                    others.add(new CheckSamples.Connector(
                            v.name(),
                            v.status().type(),
                            v.status().state(),
                            v.config(),
                            // a pattern's topics as far as they are this sink's: those are the ones a duplicate shares
                            indexes.of(v.name(), v.config(), SinkTarget.topics(v.config(), snapshot.topics()))));
                }
            }
        }
        Map<Integer, String> traces = new TreeMap<>();
        if (own != null) {
            for (ConnectorStatus.TaskStatus t : own.status().tasks()) {
                if (t.trace() != null) {
                    traces.put(t.id(), t.trace());
                }
            }
        }
        List<KeySample> keys = null;
        String keysUnavailable = null;
        KafkaReadings.GroupView group = null;
        Integer brokers = null;
        if (snapshot.topics().isEmpty()) {
            keysUnavailable = "the sink reads no topic (its topics.regex matches none yet), so there is none to sample";
        } else {
            String topic = snapshot.topics().get(0);
            if (needs.contains(CheckInput.KEYS)) {
                List<String> sampled = snapshot.topics().stream()
                        .limit(CheckSamples.SAMPLED_TOPICS)
                        .toList();
                SampleBudget share = budget.split(sampled.size());
                try {
                    List<KeySample> each = new ArrayList<>();
                    for (String t : sampled) {
                        each.add(sampler.sample(t, share));
                    }
                    keys = each;
                } catch (KafkaUnavailableException | KeySampling.Busy e) {
                    keysUnavailable = e.getMessage();
                }
            }
            try {
                if (needs.contains(CheckInput.GROUP)) {
                    group = kafka.describeGroup(SinkTarget.consumerGroup(name), topic);
                }
                if (needs.contains(CheckInput.BROKERS)) {
                    brokers = kafka.brokerCount();
                }
            } catch (KafkaUnavailableException e) {
                // left unknown: the checks that need it say so
            }
        }
        WorkerCpuReadings.Result workers = needs.contains(CheckInput.WORKER_CPU)
                ? cpu.read(workerIds(snapshot, views))
                : new WorkerCpuReadings.Result(null, "not read: no check run needs it");
        return new CheckSamples(
                tasksWanted,
                needs.contains(CheckInput.WINDOW) ? watcher.window(name) : List.of(),
                keys,
                keys == null && keysUnavailable == null ? "not read: no check run needs it" : keysUnavailable,
                own == null ? null : own.config(),
                own == null ? null : own.status().state(),
                traces,
                others,
                needs.contains(CheckInput.WORKER_CONFIG) ? workerProperties() : Map.of(),
                group == null ? null : group.assignor(),
                group == null ? null : group.protocol(),
                brokers,
                workers.workers(),
                workers.unavailable(),
                rebalanceDelay);
    }

    /** The group's workers Connect names: those of the sink's tasks and of every connector and task it lists. */
    private static Set<String> workerIds(PipelineSnapshot snapshot, Map<String, ConnectApi.ConnectorView> views) {
        List<String> ids = new ArrayList<>();
        snapshot.tasks().forEach(t -> ids.add(t.workerId()));
        if (views != null) {
            for (ConnectApi.ConnectorView v : views.values()) {
                ids.add(v.status().workerId());
                v.status().tasks().forEach(t -> ids.add(t.workerId()));
            }
        }
        Set<String> known = new TreeSet<>();
        ids.stream().filter(java.util.Objects::nonNull).forEach(known::add);
        return known;
    }

    private Map<String, ConnectApi.ConnectorView> connectors() {
        try {
            return connect.connectorsExpanded();
        } catch (ConnectRestException e) {
            return null;
        }
    }

    /** The worker's properties, read afresh each time (the file may change); empty when none was given or it is gone. */
    private Map<String, String> workerProperties() {
        Map<String, String> values = new TreeMap<>();
        if (workerConfig.isEmpty()) {
            return values;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(workerConfig.get(), StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            return values;
        }
        p.stringPropertyNames().forEach(k -> values.put(k, p.getProperty(k).trim()));
        return values;
    }
}
