package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
    private final SafeCommitSinkTask task = new SafeCommitSinkTask(pending, Duration.ZERO);
    private final List<String> deadLetters = new ArrayList<>();

    SafeCommitSinkTaskTest() throws IOException {
    }

    @AfterEach
    void stop() {
        task.stop();
        elasticsearch.close();
    }

    private void start(boolean withDeadLetterTopic) {
        start(withDeadLetterTopic, Map.of());
    }

    /**
     * Connect hands a task a reporter whenever errors.tolerance=all, with a dead-letter topic or not:
     * {@code withReporter} without {@code withDeadLetterTopic} is tolerance=all with no topic.
     */
    private void start(boolean withDeadLetterTopic, Map<String, String> more) {
        start(withDeadLetterTopic, withDeadLetterTopic, more);
    }

    private void start(boolean withReporter, boolean withDeadLetterTopic, Map<String, String> more) {
        task.initialize(new Context(withReporter ? (record, error) -> {
            deadLetters.add(record.kafkaOffset() + ": " + error.getMessage());
            return CompletableFuture.completedFuture(null);
        } : null));
        Map<String, String> config = new HashMap<>(Map.of(
                "topics", "stocks",
                "camel.sink.url", "elasticsearch-rest://local?hostAddresses=" + elasticsearch.hostAndPort() + "&operation=Bulk",
                "camel.beans.aggregate", "#class:" + BulkIndexAggregation.class.getName(),
                "camel.beans.aggregate.indexName", "stocks",
                "camel.aggregation.size", "3",
                // completion by size only: a timeout would complete batches at an arbitrary moment
                "camel.aggregation.timeout", "600000"));
        if (withDeadLetterTopic) {
            config.put("errors.deadletterqueue.topic.name", "stocks-dlq");
        }
        config.putAll(more);
        task.start(config);
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

    /** As StringConverter hands a record of partition 0 over, with the headers the worker's transform adds. */
    private static SinkRecord text(long offset, String value) {
        try (CoordinatesHeaders transform = new CoordinatesHeaders()) {
            return transform.apply(Records.text("stocks", 0, offset, value));
        }
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
    void withErrorsToleratedButNoDeadLetterTopicARejectedDocumentStillFailsTheTask() throws InterruptedException {
        start(true, false, Map.of());

        task.put(records(0, 1.0, "not-a-number", 3.0));
        awaitAnswers();
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of()));

        assertTrue(e.getMessage().startsWith("Elasticsearch rejected document stocks-0-1: "), e.getMessage());
        assertEquals(List.of(), deadLetters, "a reporter without a topic would only log it, and the record would be committed");
    }

    @Test
    void theRecordsOfAFailedRequestAreSentAgainWhileTheirPartitionWaits() throws InterruptedException {
        start(false);
        elasticsearch.down = true;

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitAnswers();
        assertTrue(pending.hasRetry(), "the failed records wait to be sent again");
        assertEquals(Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(3), "nothing past the failed records");

        elasticsearch.down = false;
        task.put(List.of());
        awaitAnswers();
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(3));
        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
    }

    @Test
    void aMalformedRecordFailsTheTaskByDefaultNamingWhereItIsAndWhy() {
        start(false);

        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of(text(0, "{\"price\":1.0}"), text(1, "not json{"))));

        assertTrue(e.getMessage().startsWith("the record at topic stocks, partition 0, offset 1 cannot be indexed: its value is "
                + "not JSON: Unrecognized token 'not'"), e.getMessage());
        assertTrue(e.getMessage().endsWith("set kcscale.malformed.records=dlq (with a dead-letter topic) or "
                + "kcscale.malformed.records=ignore"), e.getMessage());
    }

    @Test
    void withDlqAMalformedRecordGoesToTheDeadLetterTopicAndTheRestOfTheBatchIsIndexed() throws InterruptedException {
        start(true, Map.of("kcscale.malformed.records", "dlq"));

        task.put(List.of(text(0, "{\"price\":1.0}"), text(1, "not json{"), text(2, "{\"price\":2.0}"), records(3, (Object) null).get(0),
                text(4, "{\"price\":3.0}")));
        awaitAnswers();

        assertEquals(List.of("stocks-0-0", "stocks-0-2", "stocks-0-4"), elasticsearch.indexedIds);
        assertEquals(2, deadLetters.size(), deadLetters.toString());
        assertTrue(deadLetters.get(0).startsWith("1: the record at topic stocks, partition 0, offset 1 cannot be indexed: "
                + "its value is not JSON: Unrecognized token 'not'"), deadLetters.get(0));
        assertEquals("3: the record at topic stocks, partition 0, offset 3 cannot be indexed: its value is null (a tombstone), "
                + "not JSON: use value.converter=org.apache.kafka.connect.storage.StringConverter for JSON records", deadLetters.get(1));
        assertEquals(Map.of(P0, new OffsetAndMetadata(5)), commitAfterConsuming(5));
    }

    @Test
    void withIgnoreAMalformedRecordIsSkippedAndCommitted() throws InterruptedException {
        start(false, Map.of("kcscale.malformed.records", "ignore"));

        task.put(List.of(text(0, "{\"price\":1.0}"), text(1, "not json{"), text(2, "{\"price\":2.0}"), text(3, "{\"price\":3.0}")));
        awaitAnswers();

        assertEquals(List.of("stocks-0-0", "stocks-0-2", "stocks-0-3"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(4)), commitAfterConsuming(4));
    }

    @Test
    void dlqWithoutADeadLetterTopicRefusesToStart() {
        ConnectException e = assertThrows(ConnectException.class, () -> start(true, false, Map.of("kcscale.malformed.records", "dlq")));
        assertEquals("kcscale.malformed.records=dlq needs a dead-letter topic: set errors.tolerance=all and "
                + "errors.deadletterqueue.topic.name", e.getMessage());
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
