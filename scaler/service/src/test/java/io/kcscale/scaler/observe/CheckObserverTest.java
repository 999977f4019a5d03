package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kcscale.scaler.checks.Check;
import io.kcscale.scaler.checks.CheckInput;
import io.kcscale.scaler.checks.CheckReport;
import io.kcscale.scaler.checks.CheckSamples;
import io.kcscale.scaler.checks.Checks;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import io.kcscale.scaler.checks.WorkerCpu;
import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.checks.keys.KeyTally;
import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.InMemoryConnectors;
import io.kcscale.scaler.ports.InMemoryKafka;
import io.kcscale.scaler.ports.InMemorySinkCluster;
import io.kcscale.scaler.ports.WorkerCpuReadings;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the checks read beyond the snapshot, gathered against in-memory ports. */
class CheckObserverTest {

    private static final Map<String, String> ORDERS =
            Map.of("topics", "orders", "tasks.max", "2", "camel.sink.endpoint.indexName", "orders-index");
    private static final SampleBudget BUDGET = new SampleBudget(1_000, Duration.ofSeconds(1));

    private final InMemoryConnectors connect = new InMemoryConnectors();
    private final InMemoryKafka kafka = new InMemoryKafka();
    private final InMemorySinkCluster cluster = new InMemorySinkCluster();
    private final List<String> sampled = new ArrayList<>();
    private final List<Collection<String>> cpuAsked = new ArrayList<>();
    private final KeySampling keys = new KeySampling(
            (topic, budget) -> {
                sampled.add(topic + " " + budget.records());
                kafka.partitionCount(topic);
                return new KeyTally().sample(topic, 2, 2, 5, "end", List.of(0, 1));
            },
            1,
            1,
            Duration.ofSeconds(1));
    private final WorkerCpuReadings cpu = ids -> {
        cpuAsked.add(List.copyOf(ids));
        return new WorkerCpuReadings.Result(
                List.of(new WorkerCpu("w1:8083", 0.5, 2, 0.7)), "not on the scaler's host: [w2:8083]");
    };
    private final PipelineWatcher watcher = new PipelineWatcher(
            connect,
            new PipelineObserver(
                    kafka,
                    cluster,
                    SinkIndexes.none(),
                    topic -> Optional.empty(),
                    new TaskMetricsSources(WorkerCpuSettings.none()),
                    System::currentTimeMillis),
            ids -> java.util.Set.of(),
            Duration.ofSeconds(2),
            Duration.ofMinutes(1),
            (connectors, nanos) -> {});

    @AfterEach
    void close() {
        watcher.close();
        keys.close();
    }

    private CheckObserver observer(Optional<Path> workerConfig) {
        return new CheckObserver(
                connect,
                kafka,
                keys,
                watcher,
                cpu,
                workerConfig,
                SinkIndexes.of(Map.of("datagen-sink-copy", "copy-index")),
                Duration.ofMinutes(5));
    }

    private PipelineSnapshot observed() {
        kafka.topic("orders", 100, 40)
                .group(
                        "connect-orders-sink",
                        "orders",
                        Map.of(0, 80L, 1, 40L),
                        InMemoryKafka.owners("orders-sink", 2, 2));
        cluster.index("orders-index", 120);
        connect.connector(
                "orders-sink",
                ORDERS,
                new ConnectorStatus(
                        "orders-sink",
                        "sink",
                        "RUNNING",
                        "w1:8083",
                        List.of(
                                new ConnectorStatus.TaskStatus(0, "RUNNING", "w1:8083", null),
                                new ConnectorStatus.TaskStatus(1, "FAILED", "w1:8083", "java.lang.OutOfMemoryError"))));
        connect.connector("datagen", "source", Map.of("kafka.topic", "orders"), 1, "w2:8083");
        connect.connector("datagen-sink-copy", "sink", Map.of("topics", "orders"), 1, "w2:8083");
        watcher.sampleOnce();
        return watcher.snapshot("orders-sink").orElseThrow();
    }

    @Test
    void itGathersWhatTheChecksJudgeFromEachPort(@TempDir Path dir) throws IOException {
        PipelineSnapshot snapshot = observed();
        Path worker = Files.writeString(dir.resolve("worker.properties"), "scheduled.rebalance.max.delay.ms = 60000\n");
        kafka.brokers = 3;

        CheckSamples samples = observer(Optional.of(worker)).observe(snapshot, 4, BUDGET, Checks.needs(Checks.ALL));

        assertEquals(4, samples.tasksWanted());
        assertEquals(watcher.window("orders-sink"), samples.window());
        assertEquals(List.of("orders 1000"), sampled, "the sink's one topic, within the budget asked for");
        assertEquals(
                List.of("orders"), samples.keys().stream().map(KeySample::topic).toList());
        assertNull(samples.keysUnavailable());
        assertEquals(ORDERS, samples.sinkConfig());
        assertEquals("RUNNING", samples.connectorState());
        assertEquals(Map.of(1, "java.lang.OutOfMemoryError"), samples.taskTraces());
        assertEquals(
                List.of(
                        new CheckSamples.Connector(
                                "datagen", "source", "RUNNING", Map.of("kafka.topic", "orders"), List.of()),
                        new CheckSamples.Connector(
                                "datagen-sink-copy",
                                "sink",
                                "RUNNING",
                                Map.of("topics", "orders"),
                                List.of("copy-index"))),
                samples.otherConnectors(),
                "every other connector, with the index it writes to");
        assertEquals(Map.of("scheduled.rebalance.max.delay.ms", "60000"), samples.workerConfig());
        assertEquals("range", samples.groupAssignor());
        assertEquals("CLASSIC", samples.groupProtocol());
        assertEquals(3, samples.brokers());
        assertEquals(List.of(List.of("w1:8083", "w2:8083")), cpuAsked, "the group's workers Connect names, each once");
        assertEquals(List.of(new WorkerCpu("w1:8083", 0.5, 2, 0.7)), samples.workerCpu());
        assertEquals("not on the scaler's host: [w2:8083]", samples.workerCpuUnavailable());
        assertEquals(Duration.ofMinutes(5), samples.rebalanceDelay());
    }

    @Test
    void anotherSinkSubscribedByPatternWritesTheIndexesOfTheTopicsItSharesWithThisOne() {
        PipelineSnapshot snapshot = observed();
        Map<String, String> config = Map.of(
                "connector.class",
                "io.confluent.connect.elasticsearch.ElasticsearchSinkConnector",
                "topics.regex",
                "ord.*");
        connect.connector("pattern-sink", "sink", config, 1, "w2:8083");

        CheckSamples samples = observer(Optional.empty()).observe(snapshot, 4, BUDGET, Checks.needs(Checks.ALL));

        assertEquals(
                List.of("orders"),
                samples.otherConnectors().stream()
                        .filter(c -> c.name().equals("pattern-sink"))
                        .findFirst()
                        .orElseThrow()
                        .indexes(),
                "one index per topic, the topic this sink reads among them");
    }

    @Test
    void aSystemThatFailsLeavesItsPartNullAndTheRestIsStillRead() {
        PipelineSnapshot snapshot = observed();
        connect.down = InMemoryConnectors.unreachable();
        kafka.down = new KafkaUnavailableException("Kafka did not answer within 3000 ms", null);

        CheckSamples samples = observer(Optional.empty()).observe(snapshot, 2, BUDGET, Checks.needs(Checks.ALL));

        assertNull(samples.sinkConfig());
        assertNull(samples.connectorState());
        assertNull(samples.otherConnectors());
        assertEquals(Map.of(), samples.taskTraces());
        assertNull(samples.keys());
        assertEquals("Kafka did not answer within 3000 ms", samples.keysUnavailable());
        assertNull(samples.groupAssignor());
        assertNull(samples.brokers());
        assertEquals(Map.of(), samples.workerConfig(), "none given");
        assertEquals(List.of(List.of("w1:8083")), cpuAsked, "the snapshot's workers still");
        assertEquals(1, samples.window().size());
    }

    @Test
    void aSinkThatReadsNoTopicYetHasNoKeysToSampleAndNoGroupToDescribe() {
        kafka.topic("other", 1);
        connect.connector("regex-sink", "sink", Map.of("topics.regex", "logs-.*", "tasks.max", "1"), 1, "w1:8083");
        watcher.sampleOnce();
        PipelineSnapshot snapshot = watcher.snapshot("regex-sink").orElseThrow();

        CheckSamples samples = observer(Optional.empty()).observe(snapshot, 1, BUDGET, Checks.needs(Checks.ALL));

        assertEquals(List.of(), sampled);
        assertEquals(
                "the sink reads no topic (its topics.regex matches none yet), so there is none to sample",
                samples.keysUnavailable());
        assertNull(samples.groupAssignor());
        assertNull(samples.brokers());
    }

    /** A check that reads only a key sample: one class, one registration, and the observer reads only that. */
    private static final Check KEYS_ONLY = new Check() {
        @Override
        public String id() {
            return "fixture-keys";
        }

        @Override
        public Set<CheckInput> needs() {
            return Set.of(CheckInput.KEYS);
        }

        @Override
        public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
            return new Finding(id(), Severity.OK, samples.keys().size() + " topic(s) sampled", Map.of(), "");
        }
    };

    @Test
    void theObserverReadsOnlyWhatTheChecksRunNeed(@TempDir Path dir) throws IOException {
        PipelineSnapshot snapshot = observed();
        Path worker = Files.writeString(dir.resolve("worker.properties"), "scheduled.rebalance.max.delay.ms = 60000\n");
        kafka.brokers = 3;
        List<Check> checks = List.of(KEYS_ONLY);

        CheckSamples samples = observer(Optional.of(worker)).observe(snapshot, 2, BUDGET, Checks.needs(checks));
        CheckReport report = Checks.run(checks, snapshot, samples);

        assertEquals(List.of("orders 1000"), sampled, "the keys it needs");
        assertEquals(List.of(), cpuAsked, "no worker's CPU");
        assertNull(samples.sinkConfig(), "no connector read");
        assertNull(samples.groupAssignor(), "no group described");
        assertNull(samples.brokers(), "no broker counted");
        assertEquals(Map.of(), samples.workerConfig(), "the worker's properties not read");
        assertEquals(List.of(), samples.window(), "no window");
        assertEquals(
                List.of("fixture-keys: 1 topic(s) sampled"),
                report.findings().stream().map(f -> f.id() + ": " + f.title()).toList());
    }
}
