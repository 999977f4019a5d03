package io.kcscale.scaler.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.model.TopicPartition;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.InMemoryKafka;
import io.kcscale.scaler.ports.InMemorySinkCluster;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The sampling round's filler, against in-memory Kafka and sink-cluster ports. */
class PipelineObserverTest {

    private final InMemoryKafka kafka = new InMemoryKafka();
    private final InMemorySinkCluster cluster = new InMemorySinkCluster();
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final AtomicInteger reasonReads = new AtomicInteger();
    private final PipelineObserver observer = new PipelineObserver(
            kafka,
            cluster,
            SinkIndexes.none(),
            topic -> {
                reasonReads.incrementAndGet();
                return Optional.of("reason " + reasonReads.get());
            },
            new TaskMetricsSources(WorkerCpuSettings.none()),
            clock::get);

    private static Map<String, String> sink(String topics, String index) {
        return Map.of(
                "connector.class",
                "org.apache.camel.kafkaconnector.elasticsearchsink.CamelElasticsearchsinkSinkConnector",
                "topics",
                topics,
                "tasks.max",
                "2",
                "camel.sink.endpoint.indexName",
                index);
    }

    private static PipelineObserver.Sink running(Map<String, String> config, int tasks) {
        List<ConnectorStatus.TaskStatus> running = java.util.stream.IntStream.range(0, tasks)
                .mapToObj(t -> new ConnectorStatus.TaskStatus(t, "RUNNING", "w:8083", null))
                .toList();
        return new PipelineObserver.Sink(
                config, new ConnectorStatus("any", "sink", "RUNNING", "w:8083", running), Map.of());
    }

    @Test
    void everySinkIsSampledFromOneKafkaReadingAndOneSinkClusterReadingForThemAll() {
        kafka.topic("orders", 100, 50)
                .group("connect-a", "orders", Map.of(0, 90L, 1, 50L), InMemoryKafka.owners("a", 2, 2));
        kafka.topic("clicks", 7).group("connect-b", "clicks", Map.of(0, 7L), InMemoryKafka.owners("b", 1, 1));
        cluster.index("orders-index", 140).index("clicks-index", 7);
        Map<String, PipelineObserver.Sink> sinks = new LinkedHashMap<>();
        sinks.put("a", running(sink("orders", "orders-index"), 2));
        sinks.put("b", running(sink("clicks", "clicks-index"), 1));

        Map<String, PipelineSample> samples = observer.sample(sinks, null);

        assertEquals(List.of("a", "b"), List.copyOf(samples.keySet()));
        assertEquals(1, kafka.reads.get(), "one batched Kafka reading per round");
        assertEquals(1, cluster.reads.get(), "one batched sink-cluster reading per round");
        PipelineSample a = samples.get("a");
        assertEquals(clock.get(), a.atMillis());
        assertEquals(
                Map.of(new TopicPartition("orders", 0), 100L, new TopicPartition("orders", 1), 50L), a.endOffsets());
        assertEquals(
                Map.of(new TopicPartition("orders", 0), 90L, new TopicPartition("orders", 1), 50L),
                a.committedOffsets());
        assertEquals(Map.of(new TopicPartition("orders", 0), 0, new TopicPartition("orders", 1), 1), a.assignment());
        assertEquals("STABLE", a.groupState());
        assertEquals("range", a.groupAssignor());
        assertEquals(2, a.tasksMax());
        assertEquals("sink", a.connectorType());
        assertEquals(2, a.tasks().size());
        assertEquals("orders-index", a.indexes().get(0).name());
        assertEquals(140L, a.indexes().get(0).indexTotal());
        assertEquals(1, a.indexes().get(0).primaryShards());
        assertEquals(List.of(), a.unreachable());
        assertEquals(7L, samples.get("b").indexes().get(0).indexTotal());
    }

    @Test
    void aSystemDownLeavesItsPartNullAndSaysSoWhileTheOthersAreStillRead() {
        kafka.topic("orders", 100).group("connect-a", "orders", Map.of(0, 90L), InMemoryKafka.owners("a", 1, 1));
        cluster.index("orders-index", 140);
        kafka.down = new KafkaUnavailableException("Kafka did not answer within 3000 ms", null);

        PipelineSample a = observer.sample(
                        Map.of("a", running(sink("orders", "orders-index"), 1)), "Kafka Connect at x is unreachable")
                .get("a");

        assertNull(a.endOffsets());
        assertNull(a.committedOffsets());
        assertNull(a.groupState());
        assertEquals(140L, a.indexes().get(0).indexTotal(), "Elasticsearch is read although Kafka is down");
        assertEquals(
                List.of("Kafka Connect at x is unreachable", "Kafka did not answer within 3000 ms"),
                a.unreachable(),
                "each line led by its system's name, once");

        kafka.down = null;
        cluster.down = new IllegalStateException("Elasticsearch at y: connection refused");
        PipelineSample again = observer.sample(Map.of("a", running(sink("orders", "orders-index"), 1)), null)
                .get("a");
        assertEquals(Map.of(new TopicPartition("orders", 0), 100L), again.endOffsets());
        assertNull(again.indexes().get(0).indexTotal());
        assertEquals(List.of("Elasticsearch at y: connection refused"), again.unreachable());
    }

    @Test
    void aMissingTopicFailsItsOwnSinkOnly() {
        kafka.topic("orders", 100).group("connect-a", "orders", Map.of(0, 90L), InMemoryKafka.owners("a", 1, 1));
        Map<String, PipelineObserver.Sink> sinks = new LinkedHashMap<>();
        sinks.put("a", running(sink("orders", "i"), 1));
        sinks.put("gone", running(sink("orders,deleted", "i"), 1));

        Map<String, PipelineSample> samples = observer.sample(sinks, null);

        assertEquals(
                Map.of(new TopicPartition("orders", 0), 100L), samples.get("a").endOffsets());
        assertEquals(
                List.of(),
                samples.get("a").unreachable(),
                "an index that does not exist is its own problem, not the cluster's");
        assertEquals("no index named i", samples.get("a").indexes().get(0).problem());
        PipelineSample gone = samples.get("gone");
        assertNull(gone.endOffsets(), "every topic or none: a part of the lag must not look like the whole");
        assertTrue(
                gone.unreachable().get(0).startsWith("Kafka: topic deleted: "),
                gone.unreachable().toString());
    }

    @Test
    void regexSinksAreMatchedAgainstOneListingOfTheTopicsPerRound() {
        kafka.topic("logs-1", 1).topic("logs-2", 1).topic("other", 1);
        Map<String, String> regex = Map.of("topics.regex", "logs-.*", "tasks.max", "1");
        Map<String, PipelineObserver.Sink> sinks = new LinkedHashMap<>();
        sinks.put("r1", running(regex, 1));
        sinks.put("r2", running(regex, 1));

        Map<String, PipelineSample> samples = observer.sample(sinks, null);

        assertEquals(1, kafka.topicListings.get());
        assertEquals(List.of("logs-1", "logs-2"), samples.get("r1").topics());
        assertEquals(List.of("logs-1", "logs-2"), samples.get("r2").topics());
        assertEquals(List.of(), samples.get("r1").unreachable(), "a sink with no index names no sink-cluster problem");
    }

    @Test
    void aDeadLetterReasonIsReadAgainOnlyWhenTheTopicGrewAndNotMoreOftenThanTheRereadInterval() {
        kafka.topic("orders", 10).topic("dlq", 0);
        Map<String, String> config = new java.util.HashMap<>(sink("orders", "i"));
        config.put("errors.deadletterqueue.topic.name", "dlq");
        Map<String, PipelineObserver.Sink> sinks = Map.of("a", running(config, 1));

        PipelineSample.DeadLetterReading empty =
                observer.sample(sinks, null).get("a").deadLetters();
        assertEquals(new PipelineSample.DeadLetterReading("dlq", 0L, null), empty);
        assertEquals(0, reasonReads.get(), "an empty topic has no reason to read");

        kafka.topic("dlq", 3);
        assertEquals(
                new PipelineSample.DeadLetterReading("dlq", 3L, "reason 1"),
                observer.sample(sinks, null).get("a").deadLetters());
        assertEquals(
                new PipelineSample.DeadLetterReading("dlq", 3L, "reason 1"),
                observer.sample(sinks, null).get("a").deadLetters());
        assertEquals(1, reasonReads.get(), "not grown: not read again");

        kafka.topic("dlq", 5);
        clock.addAndGet(PipelineObserver.REASON_REREAD_MILLIS - 1);
        assertEquals(
                new PipelineSample.DeadLetterReading("dlq", 5L, "reason 1"),
                observer.sample(sinks, null).get("a").deadLetters());
        assertEquals(1, reasonReads.get(), "grown, but read too recently");

        clock.addAndGet(1);
        assertEquals(
                new PipelineSample.DeadLetterReading("dlq", 5L, "reason 2"),
                observer.sample(sinks, null).get("a").deadLetters());
        assertEquals(2, reasonReads.get());
    }

    @Test
    void aDeadLetterTopicNotThereYetReadsAsUnknownNotAsASystemDown() {
        kafka.topic("orders", 10);
        Map<String, String> config = new java.util.HashMap<>(sink("orders", "i"));
        config.put("errors.deadletterqueue.topic.name", "dlq");

        PipelineSample a =
                observer.sample(Map.of("a", running(config, 1)), null).get("a");

        assertEquals(new PipelineSample.DeadLetterReading("dlq", null, null), a.deadLetters());
        assertEquals(Map.of(new TopicPartition("orders", 0), 10L), a.endOffsets());
    }
}
