package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.ports.InMemoryConnectors;
import io.kcscale.scaler.ports.InMemoryKafka;
import io.kcscale.scaler.ports.InMemorySinkCluster;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sampling loop's rounds, against in-memory Connect, Kafka and sink-cluster ports. */
class PipelineWatcherTest {

    private static final Map<String, String> ORDERS =
            Map.of("topics", "orders", "tasks.max", "2", "camel.sink.endpoint.indexName", "orders-index");

    private final InMemoryConnectors connect = new InMemoryConnectors();
    private final InMemoryKafka kafka = new InMemoryKafka();
    private final InMemorySinkCluster cluster = new InMemorySinkCluster();
    private final Set<String> silentWorkers = ConcurrentHashMap.newKeySet();
    private final List<Integer> rounds = new ArrayList<>();
    private final PipelineWatcher watcher = new PipelineWatcher(
            connect,
            new PipelineObserver(
                    kafka,
                    cluster,
                    SinkIndexes.none(),
                    topic -> Optional.empty(),
                    new TaskMetricsSources(WorkerCpuSettings.none()),
                    System::currentTimeMillis),
            ids -> ids.stream().filter(silentWorkers::contains).collect(java.util.stream.Collectors.toSet()),
            Duration.ofSeconds(2),
            Duration.ofMinutes(1),
            (connectors, nanos) -> rounds.add(connectors));

    @AfterEach
    void close() {
        watcher.close();
    }

    private void pipeline() {
        kafka.topic("orders", 100, 40)
                .group(
                        "connect-orders-sink",
                        "orders",
                        Map.of(0, 80L, 1, 40L),
                        InMemoryKafka.owners("orders-sink", 2, 2));
        cluster.index("orders-index", 120);
        connect.connector("orders-sink", "sink", ORDERS, 2, "w1:8083");
        connect.connector("datagen", "source", Map.of("kafka.topic", "orders"), 1, "w2:8083");
    }

    @Test
    void aRoundSamplesEverySinkConnectListsAndNamesTheOthersWithoutSamplingThem() {
        pipeline();

        watcher.sampleOnce();

        assertEquals(List.of(1), rounds, "one sink sampled");
        List<PipelineSample> window = watcher.window("orders-sink");
        assertEquals(1, window.size());
        assertEquals(120L, window.get(0).indexes().get(0).indexTotal());
        assertEquals(List.of(), window.get(0).unreachable());
        assertEquals(
                List.of("orders-sink"),
                watcher.snapshots().stream().map(s -> s.name()).toList());
        assertEquals(Optional.of("source"), watcher.nonSinkType("datagen"));
        assertEquals(Optional.empty(), watcher.nonSinkType("orders-sink"));
        assertEquals(List.of(), watcher.window("datagen"));
        assertEquals(Optional.empty(), watcher.connectError());

        watcher.sampleOnce();
        assertEquals(2, watcher.window("orders-sink").size(), "the window keeps every round's sample");
    }

    @Test
    void whileConnectIsDownTheKnownSinksAreStillSampledFromKafkaAndTheSinkCluster() {
        pipeline();
        watcher.sampleOnce();
        connect.down = InMemoryConnectors.unreachable();
        kafka.topic("orders", 150, 60);

        watcher.sampleOnce();

        assertEquals(Optional.of(InMemoryConnectors.unreachable().getMessage()), watcher.connectError());
        PipelineSample last = watcher.window("orders-sink").get(1);
        assertEquals(150L, last.endOffsets().get(new io.kcscale.scaler.model.TopicPartition("orders", 0)));
        assertEquals(2, last.tasksMax(), "from the last config Connect gave");
        assertNull(last.tasks(), "no status without Connect");
        assertEquals(List.of(InMemoryConnectors.unreachable().getMessage()), last.unreachable());

        connect.down = null;
        watcher.sampleOnce();
        assertEquals(Optional.empty(), watcher.connectError());
    }

    @Test
    void aDeletedConnectorLeavesTheWatcherAtTheNextRound() {
        pipeline();
        watcher.sampleOnce();
        connect.delete("orders-sink");

        watcher.sampleOnce();

        assertEquals(List.of(), watcher.window("orders-sink"));
        assertEquals(Optional.empty(), watcher.snapshot("orders-sink"));
        assertEquals(List.of(1, 0), rounds);
    }

    @Test
    void aWorkerSilentForTwoRoundsIsMarkedOnTheSinksItRuns() {
        pipeline();
        silentWorkers.add("w1:8083");

        watcher.sampleOnce();
        assertEquals(
                Map.of(), watcher.window("orders-sink").get(0).unreachableWorkers(), "one silent round is no death");
        watcher.sampleOnce();

        Map<String, Long> silent = watcher.window("orders-sink").get(1).unreachableWorkers();
        assertEquals(Set.of("w1:8083"), silent.keySet());
        silentWorkers.clear();
        watcher.sampleOnce();
        assertEquals(
                Map.of(), watcher.window("orders-sink").get(2).unreachableWorkers(), "it answers again: forgotten");
    }

    @Test
    void noWorkerAnsweringWhileConnectDoesMarksNone() {
        pipeline();
        silentWorkers.add("w1:8083");
        silentWorkers.add("w2:8083");

        watcher.sampleOnce();
        watcher.sampleOnce();

        assertTrue(
                watcher.window("orders-sink").get(1).unreachableWorkers().isEmpty(),
                "the workers' advertised addresses are likely out of the scaler's reach: it cannot tell a dead one");
    }
}
