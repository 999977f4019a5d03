package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The task on a real Camel route, against a fake Elasticsearch: what it lets Connect commit, and when. */
class SafeCommitSinkTaskTest {

    private static final TopicPartition P0 = new TopicPartition("stocks", 0);

    private final FakeElasticsearch elasticsearch = new FakeElasticsearch();
    private final PendingRecords pending = new PendingRecords();
    private final SafeCommitSinkTask task = new SafeCommitSinkTask(pending);
    private final List<String> deadLetters = new ArrayList<>();

    SafeCommitSinkTaskTest() throws IOException {
    }

    @AfterEach
    void stop() {
        task.stop();
        elasticsearch.close();
    }

    private void start(boolean withDeadLetterTopic) {
        task.initialize(new Context(withDeadLetterTopic ? (record, error) -> {
            deadLetters.add(record.kafkaOffset() + ": " + error.getMessage());
            return CompletableFuture.completedFuture(null);
        } : null));
        task.start(Map.of(
                "topics", "stocks",
                "camel.sink.url", "elasticsearch-rest://local?hostAddresses=" + elasticsearch.hostAndPort() + "&operation=Bulk",
                "camel.beans.aggregate", "#class:" + BulkIndexAggregation.class.getName(),
                "camel.beans.aggregate.indexName", "stocks",
                "camel.aggregation.size", "3",
                // completion by size only: a timeout would complete batches at an arbitrary moment
                "camel.aggregation.timeout", "600000"));
    }

    /** Records of partition 0 from {@code from}, with the headers the worker's transform adds. */
    private static List<SinkRecord> records(long from, Object... prices) {
        List<SinkRecord> records = new ArrayList<>();
        try (CoordinatesHeaders transform = new CoordinatesHeaders()) {
            for (int i = 0; i < prices.length; i++) {
                records.add(transform.apply(Records.trade("stocks", 0, from + i, prices[i])));
            }
        }
        return records;
    }

    /** Camel sends batches from a thread of its own: waits for Elasticsearch's answers to all of them. */
    private void awaitAnswers() throws InterruptedException {
        assertTrue(pending.awaitAnswersBelow(1, Duration.ofSeconds(30)), "no answer from Elasticsearch within 30 s");
    }

    private Map<TopicPartition, OffsetAndMetadata> commitAfterConsuming(long next) {
        return task.preCommit(Map.of(P0, new OffsetAndMetadata(next)));
    }

    @Test
    void recordsHeldInTheAggregatorAreNotCommittedUntilTheirBulkRequestSucceeds() throws InterruptedException {
        start(false);

        task.put(records(0, 1.0, 2.0));
        assertEquals(List.of(), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(2),
                "the stock task would commit 2 here: a crash now would lose records 0 and 1");

        task.put(records(2, 3.0, 4.0));
        assertTrue(pending.awaitAnswersBelow(2, Duration.ofSeconds(30)), "no answer within 30 s");
        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(4), "record 3 waits in the next batch");
    }

    @Test
    void aRejectedDocumentGoesToTheDeadLetterTopicAndTheRestAreIndexed() throws InterruptedException {
        start(true);

        task.put(records(0, 1.0, "not-a-number", 3.0));
        awaitAnswers();
        task.put(List.of());  // Connect calls put on every poll; rejections are reported on the task's thread

        assertEquals(List.of("stocks-0-0", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(1, deadLetters.size());
        assertTrue(deadLetters.get(0).startsWith("1: Elasticsearch rejected document stocks-0-1: "), deadLetters.get(0));
        assertTrue(deadLetters.get(0).contains("mapper_parsing_exception"), deadLetters.get(0));
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(3));
    }

    @Test
    void withoutADeadLetterTopicARejectedDocumentFailsTheTaskSayingWhatToSet() throws InterruptedException {
        start(false);

        task.put(records(0, 1.0, "not-a-number", 3.0));
        awaitAnswers();
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of()));

        assertTrue(e.getMessage().startsWith("Elasticsearch rejected document stocks-0-1: "), e.getMessage());
        assertTrue(e.getMessage().contains("failed to parse field [price]"), e.getMessage());
        assertTrue(e.getMessage().endsWith("set errors.tolerance=all and errors.deadletterqueue.topic.name"), e.getMessage());
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(3), "nothing past the rejected record");
    }

    @Test
    void aFailedRequestFailsTheNextCommitSoConnectRewindsAndDeliversItsRecordsAgain() throws InterruptedException {
        start(false);
        elasticsearch.down = true;

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitAnswers();

        ConnectException e = assertThrows(ConnectException.class, () -> commitAfterConsuming(3));
        assertTrue(e.getMessage().startsWith("a bulk request of 3 documents failed: "), e.getMessage());
        assertTrue(e.getMessage().contains("Connect rewinds to the last committed offsets"), e.getMessage());

        elasticsearch.down = false;
        task.put(records(0, 1.0, 2.0, 3.0));
        awaitAnswers();
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(3));
        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
    }

    @Test
    void aTombstoneIsReportedWithoutReachingElasticsearch() {
        start(true);

        task.put(records(0, 1.0, null));

        assertEquals(List.of("1: record stocks-0-1 cannot be indexed: its value is null (a tombstone), not JSON: "
                + "use value.converter=org.apache.kafka.connect.storage.StringConverter for JSON records"),
                deadLetters);
        assertEquals(Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(2), "record 0 still waits for its batch");
    }

    @Test
    void revokedPartitionsAreForgotten() {
        start(false);
        task.put(records(0, 1.0));

        task.close(Set.of(P0));

        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(1));
    }

    private record Context(ErrantRecordReporter reporter) implements SinkTaskContext {
        @Override public Map<String, String> configs() { return Map.of(); }
        @Override public void offset(Map<TopicPartition, Long> offsets) { throw new UnsupportedOperationException(); }
        @Override public void offset(TopicPartition tp, long offset) { throw new UnsupportedOperationException(); }
        @Override public void timeout(long timeoutMs) { throw new UnsupportedOperationException(); }
        @Override public Set<TopicPartition> assignment() { return Set.of(P0); }
        @Override public void pause(TopicPartition... partitions) { throw new UnsupportedOperationException(); }
        @Override public void resume(TopicPartition... partitions) { throw new UnsupportedOperationException(); }
        @Override public void requestCommit() { throw new UnsupportedOperationException(); }
        @Override public ErrantRecordReporter errantRecordReporter() { return reporter; }
        @Override public PluginMetrics pluginMetrics() { throw new UnsupportedOperationException(); }
    }
}
