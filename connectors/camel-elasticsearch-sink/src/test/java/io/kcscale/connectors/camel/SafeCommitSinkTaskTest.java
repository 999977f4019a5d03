package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The task on a real Camel route, against a fake Elasticsearch: what it lets Connect commit, and when. */
class SafeCommitSinkTaskTest {

    private static final TopicPartition P0 = new TopicPartition("stocks", 0);
    private static final TopicPartition P1 = new TopicPartition("stocks", 1);
    private static final String MAX_IN_FLIGHT = InFlightSettings.MAX_IN_FLIGHT_REQUESTS;

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final FakeElasticsearch elasticsearch = new FakeElasticsearch();
    /** How long the task waits for a dead-letter write here: 130 s on a worker. */
    private static final Duration DEAD_LETTER_WAIT = Duration.ofSeconds(1);

    private final SafeCommitSinkTask task = new SafeCommitSinkTask(Duration.ofMillis(300), DEAD_LETTER_WAIT);
    private final List<String> deadLetters = new ArrayList<>();
    /** The records handed to the dead-letter reporter, as the task handed them. */
    private final List<SinkRecord> reported = new CopyOnWriteArrayList<>();

    private final List<Long> pollTimeouts = new CopyOnWriteArrayList<>();
    /** What the dead-letter producer makes of each write. */
    private CompletableFuture<Void> deadLetterWrite = CompletableFuture.completedFuture(null);

    private PendingRecords pending;

    SafeCommitSinkTaskTest() throws IOException {}

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
        start(withReporter, withDeadLetterTopic, more, true);
    }

    private void start(
            boolean withReporter, boolean withDeadLetterTopic, Map<String, String> more, boolean pluginMetrics) {
        task.initialize(new TaskContext(
                withReporter
                        ? (record, error) -> {
                            deadLetters.add(record.kafkaOffset() + ": " + error.getMessage());
                            reported.add(record);
                            return deadLetterWrite;
                        }
                        : null,
                pollTimeouts,
                pluginMetrics));
        Map<String, String> config = new HashMap<>(Map.of(
                "topics", "stocks",
                "camel.sink.url",
                        "elasticsearch-rest://local?hostAddresses=" + elasticsearch.hostAndPort() + "&operation=Bulk",
                "camel.beans.aggregate", "#class:" + BulkIndexAggregation.class.getName(),
                "camel.beans.aggregate.indexName", "stocks",
                "camel.aggregation.size", "3",
                // completion by size only: a timeout would complete batches at an arbitrary moment
                "camel.aggregation.timeout", "600000",
                "kcscale.retry.backoff.initial.ms", "1",
                "kcscale.retry.backoff.max.ms", "4"));
        if (withDeadLetterTopic) {
            config.put("errors.deadletterqueue.topic.name", "stocks-dlq");
            config.put("errors.tolerance", "all");
        }
        config.putAll(more);
        task.start(config);
        pending = task.pending();
    }

    /** Records of partition 0 from {@code from}, with the headers the worker's transform adds. */
    private static List<SinkRecord> records(long from, Object... prices) {
        return recordsOf(0, from, prices);
    }

    private static List<SinkRecord> recordsOf(int partition, long from, Object... prices) {
        List<SinkRecord> records = new ArrayList<>();
        try (CoordinatesHeaders transform = new CoordinatesHeaders()) {
            for (int i = 0; i < prices.length; i++) {
                records.add(transform.apply(Records.trade("stocks", partition, from + i, prices[i])));
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
        awaitState("Elasticsearch's answers", () -> pending.awaitingAnswer() == 0);
    }

    /** Polls with a deadline, waking on each outcome Camel reports. */
    private void awaitState(String what, BooleanSupplier reached) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!reached.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "no " + what + " within " + DEADLINE.toSeconds() + " s");
            pending.awaitNews(Duration.ofMillis(20));
        }
    }

    /** As Connect does, calls put on every poll (here, with nothing new) until {@code reached}. */
    private void putUntil(String what, BooleanSupplier reached) throws InterruptedException {
        awaitState(what, () -> {
            task.put(List.of());
            return reached.getAsBoolean();
        });
    }

    private Map<TopicPartition, OffsetAndMetadata> commitAfterConsuming(long next) {
        return task.preCommit(Map.of(P0, new OffsetAndMetadata(next)));
    }

    /** How often Elasticsearch was sent document {@code id}. */
    private long sends(String id) {
        return elasticsearch.sentIds.stream().filter(id::equals).count();
    }

    @Test
    void recordsHeldInTheAggregatorAreNotCommittedUntilTheirBulkRequestSucceeds() throws InterruptedException {
        start(false);

        task.put(records(0, 1.0, 2.0));
        assertEquals(List.of(), elasticsearch.indexedIds);
        assertEquals(
                Map.of(P0, new OffsetAndMetadata(0)),
                commitAfterConsuming(2),
                "the stock task would commit 2 here: a crash now would lose records 0 and 1");

        task.put(records(2, 3.0, 4.0));
        awaitState("an answer", () -> pending.awaitingAnswer() < 2);
        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(4), "record 3 waits in the next batch");
    }

    @Test
    void onAWorkerWithoutPluginMetricsTheTaskIndexesAndCommitsAsEver() throws InterruptedException {
        start(false, false, Map.of(), false);

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitAnswers();
        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(3));
    }

    @Test
    void aRejectedDocumentGoesToTheDeadLetterTopicAndTheRestAreIndexed() throws InterruptedException {
        start(true);

        task.put(records(0, 1.0, "not-a-number", 3.0));
        awaitAnswers();
        task.put(List.of()); // Connect calls put on every poll; rejections are reported on the task's thread

        assertEquals(List.of("stocks-0-0", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(1, deadLetters.size());
        assertTrue(
                deadLetters.get(0).startsWith("1: Elasticsearch rejected document stocks-0-1: "), deadLetters.get(0));
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
        assertTrue(
                e.getMessage().endsWith("set errors.tolerance=all and errors.deadletterqueue.topic.name"),
                e.getMessage());
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(3), "nothing past the rejected record");
    }

    @Test
    void withErrorsToleratedButNoDeadLetterTopicARejectedDocumentStillFailsTheTask() throws InterruptedException {
        start(true, false, Map.of());

        task.put(records(0, 1.0, "not-a-number", 3.0));
        awaitAnswers();
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of()));

        assertTrue(e.getMessage().startsWith("Elasticsearch rejected document stocks-0-1: "), e.getMessage());
        assertEquals(
                List.of(),
                deadLetters,
                "a reporter without a topic would only log it, and the record would be committed");
    }

    @Test
    void theRecordsOfAFailedRequestAreSentAgainWhileTheirPartitionWaits() throws InterruptedException {
        start(false, Map.of("kcscale.retry.backoff.initial.ms", "60000", "kcscale.retry.backoff.max.ms", "60000"));
        elasticsearch.refusingWith = 503;

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitAnswers();
        assertTrue(
                pending.untilNextRetry().orElseThrow().toMillis() >= 30_000,
                "the failed records wait for their back-off");
        assertEquals(Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(3), "nothing past the failed records");
        task.put(List.of());
        assertTrue(
                pollTimeouts.get(pollTimeouts.size() - 1) >= 29_000,
                "Connect polls again when they are due: " + pollTimeouts);
        assertEquals(3, elasticsearch.sentIds.size(), "not sent again before their back-off");
    }

    @Test
    void theRecordsOfAFailedRequestAreSentAgainAfterTheirBackoffUntilIndexed() throws InterruptedException {
        start(false, Map.of("kcscale.retry.max.attempts", "1000"));
        elasticsearch.refusingWith = 503;

        task.put(records(0, 1.0, 2.0, 3.0));
        putUntil("three sends", () -> elasticsearch.sentIds.size() >= 6);
        elasticsearch.refusingWith = 0;
        putUntil("the records committed", () -> commitAfterConsuming(3).equals(Map.of(P0, new OffsetAndMetadata(3))));

        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
    }

    @Test
    void onlyTheItemsRefusedWith429AreSentAgain() throws InterruptedException {
        start(false, Map.of("camel.aggregation.timeout", "50"));
        elasticsearch.overloadedIds.add("stocks-0-1");

        task.put(records(0, 1.0, 2.0, 3.0));
        putUntil("a second send of the refused item", () -> elasticsearch.sentIds.size() >= 4);
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(3), "nothing past the refused item");
        elasticsearch.overloadedIds.clear();
        putUntil(
                "the refused item committed",
                () -> commitAfterConsuming(3).equals(Map.of(P0, new OffsetAndMetadata(3))));

        assertEquals(
                List.of("stocks-0-0", "stocks-0-2"),
                elasticsearch.sentIds.subList(0, 3).stream()
                        .filter(id -> !id.equals("stocks-0-1"))
                        .toList());
        assertEquals(
                Set.of("stocks-0-1"),
                Set.copyOf(elasticsearch.sentIds.subList(3, elasticsearch.sentIds.size())),
                "only the refused item goes again");
    }

    @Test
    void aDocumentRefusedAsOftenAsAllowedFailsTheTaskSayingWhatToChange() throws InterruptedException {
        start(false, Map.of("camel.aggregation.timeout", "50", "kcscale.retry.max.attempts", "3"));
        elasticsearch.overloadedIds.add("stocks-0-1");
        task.put(records(0, 1.0, 2.0, 3.0));

        List<ConnectException> failed = new ArrayList<>();
        awaitState("the task to fail", () -> {
            try {
                task.put(List.of());
                return false;
            } catch (ConnectException e) {
                failed.add(e);
                return true;
            }
        });

        assertEquals(
                "Elasticsearch rejected 1 document of topic-partition stocks-0 3 times (429 Too Many Requests: "
                        + "es_rejected_execution_exception: rejected execution of coordinating operation [queue capacity = 0]): "
                        + "raise kcscale.retry.max.attempts, lower tasks.max or grow the cluster",
                failed.get(0).getMessage());
        assertEquals(
                3, elasticsearch.sentIds.stream().filter("stocks-0-1"::equals).count());
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(3), "nothing past the refused item");
    }

    /** One request in flight, and a minute before a refused record goes again: what is refused stays unsettled. */
    private static Map<String, String> oneRequestInFlightResendingLate(Map<String, String> more) {
        Map<String, String> config = new HashMap<>(Map.of(
                "kcscale.retry.backoff.initial.ms",
                "60000",
                "kcscale.retry.backoff.max.ms",
                "60000",
                MAX_IN_FLIGHT,
                "1"));
        config.putAll(more);
        return config;
    }

    @Test
    void theInFlightBoundHoldsWhileRecordsWaitToBeSentAgain() throws InterruptedException {
        // one request in flight: three batches of three may be unsettled (one sent, one queued, one filling)
        start(false, oneRequestInFlightResendingLate(Map.of()));
        elasticsearch.refusingWith = 429;
        task.put(records(0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0));
        awaitAnswers();

        long before = System.nanoTime();
        assertThrows(RetriableException.class, () -> task.put(records(9, 10.0)));
        assertTrue(
                Duration.ofNanos(System.nanoTime() - before).compareTo(Duration.ofSeconds(10)) < 0,
                "put() waits a bounded time");

        assertEquals(9, pending.inFlight(), "the batch was not taken: Connect delivers it again");
        assertEquals(9, elasticsearch.sentIds.size(), "nothing sent again before its back-off");
    }

    @Test
    void aRequestRefusedAsAWholeForGoodFailsTheTaskAndIsNotSentAgain() throws InterruptedException {
        start(false);
        elasticsearch.refusingWith = 400;

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitState("the refusal", () -> pending.failure().isPresent());
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of()));

        assertTrue(
                e.getMessage()
                        .startsWith(
                                "Elasticsearch refused 3 documents, from topic stocks, partition 0, offset 0, for a "
                                        + "reason no document is to blame for: the bulk request as a whole: 400 Bad Request: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("refused by the test"), e.getMessage());
        assertEquals(3, elasticsearch.sentIds.size());
        assertEquals(Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(3));
    }

    @Test
    void upToTheMaximumOfRequestsAreInFlightAtOnce() throws InterruptedException {
        start(false, Map.of(MAX_IN_FLIGHT, "2"));
        elasticsearch.heldIds.addAll(List.of("stocks-0-0", "stocks-0-3", "stocks-0-6"));

        task.put(records(0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0));
        awaitState("two requests in flight", () -> elasticsearch.bulkInFlight.get() == 2);
        assertEquals(6, elasticsearch.sentIds.size(), "the third batch waits for one of them to be answered");
        assertEquals(Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(9));

        elasticsearch.release();
        awaitAnswers();
        assertEquals(2, elasticsearch.mostBulkInFlight.get());
        assertEquals(9, elasticsearch.indexedIds.size());
        assertEquals(Map.of(P0, new OffsetAndMetadata(9)), commitAfterConsuming(9));
    }

    @Test
    void aLaterRequestAnsweredFirstCommitsNothingPastAnEarlierOneInFlight() throws InterruptedException {
        start(false, Map.of(MAX_IN_FLIGHT, "2"));
        elasticsearch.heldIds.add("stocks-0-0");

        task.put(records(0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0));
        awaitState("the second request's answer", () -> pending.inFlight() == 3);
        assertEquals(List.of("stocks-0-3", "stocks-0-4", "stocks-0-5"), elasticsearch.indexedIds);
        assertEquals(
                Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(6), "records 0 to 2 are still in flight");

        elasticsearch.release();
        awaitAnswers();
        assertEquals(Map.of(P0, new OffsetAndMetadata(6)), commitAfterConsuming(6));
    }

    @Test
    void aRequestFailingWhileAnotherSucceedsHoldsBackOnlyItsOwnPartition() throws InterruptedException {
        start(false, Map.of(MAX_IN_FLIGHT, "2"));
        // both requests are in Elasticsearch at once before either is answered
        elasticsearch.heldIds.addAll(List.of("stocks-0-0", "stocks-1-0"));
        elasticsearch.failingIds.add("stocks-0-0");
        List<SinkRecord> both = new ArrayList<>(recordsOf(0, 0, 1.0, 2.0, 3.0));
        both.addAll(recordsOf(1, 0, 4.0, 5.0, 6.0));

        task.put(both);
        awaitState("two requests in flight", () -> elasticsearch.bulkInFlight.get() == 2);
        elasticsearch.release();
        awaitAnswers();
        Map<TopicPartition, OffsetAndMetadata> consumed =
                Map.of(P0, new OffsetAndMetadata(3), P1, new OffsetAndMetadata(3));
        assertEquals(Map.of(P0, new OffsetAndMetadata(0), P1, new OffsetAndMetadata(3)), task.preCommit(consumed));

        elasticsearch.failingIds.clear();
        putUntil(
                "the failed request's records sent again and committed",
                () -> task.preCommit(consumed).equals(consumed));
        assertEquals(
                Set.of("stocks-0-0", "stocks-0-1", "stocks-0-2", "stocks-1-0", "stocks-1-1", "stocks-1-2"),
                Set.copyOf(elasticsearch.indexedIds));
        assertEquals(6, elasticsearch.indexedIds.size(), "only the failed request's records went again");
    }

    /** The bulk API takes one line per document: Elasticsearch's client writes each source again on one line. */
    @Test
    void prettyPrintedDocumentsAreIndexed() throws InterruptedException {
        start(false);

        task.put(List.of(
                text(0, "{\n  \"price\": 1.0\n}"),
                text(1, "{\r\n  \"price\": 2.0,\r\n  \"symbol\": \"ZVV\"\r\n}\n"),
                text(2, "{\"price\":3.0}")));
        awaitAnswers();

        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
    }

    @Test
    void aMalformedRecordFailsTheTaskByDefaultNamingWhereItIsAndWhy() {
        start(false);

        ConnectException e = assertThrows(
                ConnectException.class, () -> task.put(List.of(text(0, "{\"price\":1.0}"), text(1, "not json{"))));

        assertTrue(
                e.getMessage()
                        .startsWith("the record at topic stocks, partition 0, offset 1 cannot be indexed: its value is "
                                + "not JSON: Unrecognized token 'not'"),
                e.getMessage());
        assertTrue(
                e.getMessage()
                        .endsWith("set kcscale.malformed.records=dlq (with a dead-letter topic) or "
                                + "kcscale.malformed.records=ignore"),
                e.getMessage());
    }

    @Test
    void withDlqAMalformedRecordGoesToTheDeadLetterTopicAndTheRestOfTheBatchIsIndexed() throws InterruptedException {
        start(true, Map.of("kcscale.malformed.records", "dlq"));

        task.put(List.of(
                text(0, "{\"price\":1.0}"),
                text(1, "not json{"),
                text(2, "{\"price\":2.0}"),
                records(3, (Object) null).get(0),
                text(4, "{\"price\":3.0}")));
        awaitAnswers();

        assertEquals(List.of("stocks-0-0", "stocks-0-2", "stocks-0-4"), elasticsearch.indexedIds);
        assertEquals(2, deadLetters.size(), deadLetters.toString());
        assertTrue(
                deadLetters
                        .get(0)
                        .startsWith("1: the record at topic stocks, partition 0, offset 1 cannot be indexed: "
                                + "its value is not JSON: Unrecognized token 'not'"),
                deadLetters.get(0));
        assertEquals(
                "3: the record at topic stocks, partition 0, offset 3 cannot be indexed: its value is null (a tombstone), "
                        + "not JSON: use value.converter=org.apache.kafka.connect.converters.ByteArrayConverter for JSON records",
                deadLetters.get(1));
        assertEquals(Map.of(P0, new OffsetAndMetadata(5)), commitAfterConsuming(5));
    }

    @Test
    void withIgnoreAMalformedRecordIsSkippedAndCommitted() throws InterruptedException {
        start(false, Map.of("kcscale.malformed.records", "ignore"));

        task.put(List.of(
                text(0, "{\"price\":1.0}"),
                text(1, "not json{"),
                text(2, "{\"price\":2.0}"),
                text(3, "{\"price\":3.0}")));
        awaitAnswers();

        assertEquals(List.of("stocks-0-0", "stocks-0-2", "stocks-0-3"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(4)), commitAfterConsuming(4));
    }

    @Test
    void dlqWithoutADeadLetterTopicRefusesToStart() {
        ConnectException e = assertThrows(
                ConnectException.class, () -> start(true, false, Map.of("kcscale.malformed.records", "dlq")));
        assertEquals(
                "kcscale.malformed.records=dlq needs a dead-letter topic: set errors.tolerance=all and "
                        + "errors.deadletterqueue.topic.name",
                e.getMessage());
    }

    /** Camel's producer obeys exchange headers over its endpoint, and Camel's task maps CamelHeader.X records headers onto them. */
    @Test
    void noRecordHeaderReachesCamelSoNoneSteersTheSink() throws InterruptedException {
        start(false);
        List<SinkRecord> hostile = records(0, 1.0, 2.0, 3.0);
        hostile.get(0).headers().addString("CamelHeader.CamelAggregationCompleteAllGroups", "true");
        hostile.get(1).headers().addString("CamelHeader.kcscale.coordinates", "stocks-0-0");
        hostile.get(1).headers().addString("CamelHeader.operation", "DeleteIndex");
        hostile.get(2).headers().addString("CamelProperty.CamelAggregationCompleteCurrentGroup", "true");
        hostile.get(2).headers().addString("CamelHeader.indexName", "other");

        task.put(hostile);
        awaitAnswers();

        assertEquals(
                List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"),
                elasticsearch.sentIds,
                "one request, into stocks, ids from the records");
        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(3), "no record left pending for good");
    }

    @Test
    void aBatchClosesAtItsMostBytesAsAtItsMostRecords() throws InterruptedException {
        start(false, Map.of("kcscale.bulk.max.bytes", "65536"));
        String padding = "x".repeat(40_000);

        task.put(records(0, 1.0, 2.0, 3.0, 4.0).stream()
                .map(r ->
                        text(r.kafkaOffset(), "{\"price\":" + (r.kafkaOffset() + 1) + ",\"pad\":\"" + padding + "\"}"))
                .toList());
        // by count alone (3) the fourth record would wait for two more, or for the 10-minute timeout
        awaitAnswers();

        assertEquals(
                List.of("stocks-0-0", "stocks-0-1", "stocks-0-2", "stocks-0-3"),
                elasticsearch.indexedIds.stream().sorted().toList(),
                "two requests of two, answered in either order");
        assertEquals(Map.of(P0, new OffsetAndMetadata(4)), commitAfterConsuming(4));
    }

    @Test
    void aDocumentLargerThanOneRequestMayCarryGoesToTheDeadLetterTopicNamingItsSize() throws InterruptedException {
        start(true, Map.of("kcscale.bulk.max.bytes", "65536"));
        String large = "{\"price\":1.0,\"pad\":\"" + "x".repeat(70_000) + "\"}";

        task.put(List.of(
                text(0, "{\"price\":1.0}"), text(1, large), text(2, "{\"price\":2.0}"), text(3, "{\"price\":3.0}")));
        awaitAnswers();

        assertEquals(
                List.of("1: the record at topic stocks, partition 0, offset 1 holds a document of " + large.length()
                        + " bytes, more than one bulk request may carry (kcscale.bulk.max.bytes=65536)"),
                deadLetters);
        assertEquals(List.of("stocks-0-0", "stocks-0-2", "stocks-0-3"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(4)), commitAfterConsuming(4));
    }

    /** Connect awaits only the dead-letter writes still in flight: one its producer failed at once was committed and lost. */
    @Test
    void aDeadLetterWriteThatFailsAtOnceFailsTheTaskNamingTheRecordAndTheReason() {
        start(true, Map.of("kcscale.malformed.records", "dlq"));
        deadLetterWrite = CompletableFuture.failedFuture(new IllegalStateException(
                "The message is 1048700 bytes when serialized " + "which is larger than 1048576"));

        ConnectException e = assertThrows(
                ConnectException.class, () -> task.put(List.of(text(0, "{\"price\":1.0}"), text(1, "not json{"))));

        assertTrue(
                e.getMessage()
                        .startsWith(
                                "the dead-letter copy of the record at topic stocks, partition 0, offset 1 was not written "
                                        + "(IllegalStateException: The message is 1048700 bytes when serialized which is larger than 1048576); its offset "
                                        + "is not committed."),
                e.getMessage());
    }

    @Test
    void aRejectedDocumentIsSettledOnlyOnceItsDeadLetterIsWritten() throws InterruptedException {
        start(true);
        CompletableFuture<Void> write = new CompletableFuture<>();
        deadLetterWrite = write;
        task.put(records(0, 1.0, "not-a-number", 2.0));
        awaitState("the rejection", () -> pending.awaitingAnswer() == 0);

        write.completeExceptionally(
                new IllegalStateException("Topic stocks-dlq not present in metadata after 60000 ms."));
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of()));

        assertTrue(
                e.getMessage()
                        .contains("offset 1 was not written (IllegalStateException: Topic stocks-dlq not present"),
                e.getMessage());
        assertEquals(
                Map.of(P0, new OffsetAndMetadata(1)),
                commitAfterConsuming(3),
                "nothing committed past the rejected record");
    }

    @Test
    void revokedPartitionsAreForgotten() {
        start(false);
        task.put(records(0, 1.0));

        task.close(Set.of(P0));

        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(1));
    }

    /** Few records may be many bytes: the bound on bytes holds a batch back where the one on records would not. */
    @Test
    void theInFlightBoundOnBytesHoldsWhereTheBoundOnRecordsWouldNot() throws InterruptedException {
        // one request in flight, 64 KiB a request: 3 x 65,536 bytes may be unsettled, and 3 x 3 records
        start(false, oneRequestInFlightResendingLate(Map.of("kcscale.bulk.max.bytes", "65536")));
        elasticsearch.refusingWith = 429;
        String large = "{\"price\":1.0,\"pad\":\"" + "x".repeat(50_000) + "\"}";
        task.put(List.of(text(0, large), text(1, large), text(2, large), text(3, large)));
        awaitAnswers();
        assertTrue(pending.inFlight() < 9, "the records alone leave room: " + pending.inFlight());

        RetriableException full =
                assertThrows(RetriableException.class, () -> task.put(List.of(text(4, "{\"price\":5.0}"))));

        assertTrue(
                full.getMessage().contains("at most 9 documents and 196608 bytes may be in flight"), full.getMessage());
        assertEquals(4, pending.inFlight(), "the batch was not taken: Connect delivers it again");
        assertEquals(4, elasticsearch.sentIds.size(), "nothing sent again before its back-off");
    }

    /** Nothing may ever name a record Camel dropped: past the outcome timeout it is sent again, and its partition waits. */
    @Test
    void aRecordWithoutAnOutcomeWithinTheTimeoutIsSentAgainAndItsPartitionWaits() throws InterruptedException {
        start(false, Map.of("kcscale.bulk.outcome.timeout.ms", "1000"));
        elasticsearch.queueing = true;
        long handedOver = System.nanoTime();

        task.put(records(0, 1.0, 2.0, 3.0));
        putUntil("the records sent again for want of an outcome", () -> elasticsearch.sentIds.size() == 6);
        assertTrue(
                Duration.ofNanos(System.nanoTime() - handedOver).compareTo(Duration.ofSeconds(1)) >= 0,
                "not before the timeout");
        assertEquals(Map.of(P0, new OffsetAndMetadata(0)), commitAfterConsuming(3), "nothing committed past them");

        elasticsearch.release();
        putUntil("the records committed", () -> commitAfterConsuming(3).equals(Map.of(P0, new OffsetAndMetadata(3))));
        assertEquals(
                Set.of("stocks-0-0", "stocks-0-1", "stocks-0-2"),
                Set.copyOf(elasticsearch.indexedIds),
                "one document per record: both answers wrote the same ids");
    }

    /**
     * A record sent again for want of an outcome while its first request still waited is answered twice: refused
     * by both requests, it goes to the dead-letter topic once. Every record ends indexed or dead-lettered, once.
     */
    @Test
    void aRejectedRecordAnsweredByTwoRequestsIsDeadLetteredOnce() throws InterruptedException {
        start(true, Map.of("kcscale.bulk.outcome.timeout.ms", "1000"));
        elasticsearch.queueing = true;
        task.put(records(0, "not-a-number", 2.0, 3.0));
        putUntil("the records sent again for want of an outcome", () -> elasticsearch.sentIds.size() == 6);

        // the first request refuses record 0 for good and 1 and 2 for now; the second indexes them
        elasticsearch.overloadedIds.addAll(List.of("stocks-0-1", "stocks-0-2"));
        elasticsearch.answerNext();
        awaitState("the first request's answer", () -> pending.awaitingAnswer() == 0);
        elasticsearch.overloadedIds.clear();
        elasticsearch.answerNext();
        awaitState("the second request's answer", () -> pending.inFlight() == 1);
        task.put(List.of());

        assertEquals(1, deadLetters.size(), deadLetters.toString());
        assertTrue(
                deadLetters
                        .get(0)
                        .startsWith("0: Elasticsearch rejected document stocks-0-0: mapper_parsing_exception"),
                deadLetters.get(0));
        assertEquals(List.of("stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(3)), commitAfterConsuming(3));
    }

    /**
     * A bulk item refused with 401, 403 or 404 (credentials, privileges, a missing index) would befall every
     * document alike: the task stops naming the document and what to change, nothing is dead-lettered and nothing
     * committed past it. The status says so whether or not the sink knows the error's type.
     */
    @ParameterizedTest
    @CsvSource({
        "401, security_exception, check the credentials in camel.sink.url",
        "403, security_exception, check the credentials in camel.sink.url",
        "404, index_not_found_exception, create the index",
        "401, authentication_exception, check the credentials in camel.sink.url",
        "403, authorization_exception, check the credentials in camel.sink.url",
        "404, not_found, create the index"
    })
    void anItemRefusedWith401Or403Or404StopsTheTaskAndIsNotDeadLettered(int status, String type, String whatToChange)
            throws InterruptedException {
        start(true);
        elasticsearch.refusedItems.put("stocks-0-1", new FakeElasticsearch.ItemRefusal(status, type));

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitState("the answer", () -> pending.failure().isPresent() && pending.inFlight() == 1);
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of()));

        assertTrue(
                e.getMessage()
                        .startsWith("Elasticsearch refused 1 document, from topic stocks, partition 0, offset 1, for a "
                                + "reason no document is to blame for: document stocks-0-1 was refused with "
                                + RequestFailure.described(status) + " (" + type + ": refused by the test); "
                                + whatToChange),
                e.getMessage());
        assertEquals(List.of(), deadLetters);
        assertEquals(List.of("stocks-0-0", "stocks-0-2"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(3), "nothing past the refused item");
    }

    /** A request whose every item is refused for lack of privileges is one failure naming how many documents. */
    @Test
    void itemsRefusedAlikeAreNamedTogether() throws InterruptedException {
        start(true);
        for (String id : List.of("stocks-0-0", "stocks-0-1", "stocks-0-2")) {
            elasticsearch.refusedItems.put(id, new FakeElasticsearch.ItemRefusal(403, "security_exception"));
        }

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitState("the refusal", () -> pending.failure().isPresent());
        ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of()));

        assertTrue(
                e.getMessage()
                        .startsWith(
                                "Elasticsearch refused 3 documents, from topic stocks, partition 0, offset 0, for a "
                                        + "reason no document is to blame for: document stocks-0-0 was refused with 403 Forbidden"),
                e.getMessage());
        assertEquals(List.of(), deadLetters);
    }

    /** 408 Request Timeout is Elasticsearch (or a proxy before it) out of time: the item is sent again, not dead-lettered. */
    @Test
    void anItemRefusedWith408IsSentAgainAndIndexed() throws InterruptedException {
        start(true);
        elasticsearch.refusedItems.put("stocks-0-1", new FakeElasticsearch.ItemRefusal(408, "timeout_exception"));

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitAnswers();
        elasticsearch.refusedItems.clear();
        awaitState(
                "the resend due", () -> pending.untilNextRetry().orElseThrow().isZero());
        // sent again with two new records, in one request of three
        task.put(records(3, 4.0, 5.0));
        awaitAnswers();

        assertEquals(List.of(), deadLetters);
        assertEquals(2, sends("stocks-0-1"));
        assertEquals(
                List.of("stocks-0-0", "stocks-0-1", "stocks-0-2", "stocks-0-3", "stocks-0-4"),
                elasticsearch.indexedIds.stream().sorted().toList());
        assertEquals(Map.of(P0, new OffsetAndMetadata(5)), commitAfterConsuming(5));
    }

    @Test
    void aRequestRefusedWith408AsAWholeIsSentAgainAndIndexed() throws InterruptedException {
        start(true);
        elasticsearch.refusingWith = 408;

        task.put(records(0, 1.0, 2.0, 3.0));
        awaitAnswers();
        assertEquals(Optional.empty(), pending.failure(), "refused for now, not for good");
        elasticsearch.refusingWith = 0;
        putUntil("the records committed", () -> commitAfterConsuming(3).equals(Map.of(P0, new OffsetAndMetadata(3))));

        assertEquals(List.of(), deadLetters);
        assertEquals(List.of("stocks-0-0", "stocks-0-1", "stocks-0-2"), elasticsearch.indexedIds);
    }

    /**
     * Connect's dead-letter producer ends each write within its delivery.timeout.ms; should a write never be
     * acknowledged all the same, put() fails naming the record after a bounded wait instead of holding the task.
     */
    @Test
    void aDeadLetterWriteNeverAcknowledgedFailsTheTaskAfterABoundedWaitNamingTheRecord() throws InterruptedException {
        start(true);
        deadLetterWrite = new CompletableFuture<>();
        task.put(records(0, 1.0, "not-a-number", 3.0));
        awaitAnswers();
        long before = System.nanoTime();

        ConnectException e = assertTimeoutPreemptively(
                DEAD_LETTER_WAIT.multipliedBy(10),
                () -> assertThrows(ConnectException.class, () -> task.put(List.of())),
                "put() waits for a dead-letter write no longer than its bound");

        assertTrue(
                Duration.ofNanos(System.nanoTime() - before).compareTo(DEAD_LETTER_WAIT) >= 0, "not before the bound");
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "the dead-letter copy of the record at topic stocks, partition 0, offset 1 was not "
                                        + "written (TimeoutException: no acknowledgement within 1 s); its offset is not committed"),
                e.getMessage());
        assertEquals(Map.of(P0, new OffsetAndMetadata(1)), commitAfterConsuming(3));
    }

    /**
     * The dead-letter topic gets each record as Connect handed it over, its own headers included (a producer's
     * CamelHeader.* too: they never reach Camel, but they are the record's), whichever way it got there.
     */
    @Test
    void eachDeadLetterIsTheRecordAsHandedOverWithItsOwnHeaders() throws InterruptedException {
        start(true, Map.of("kcscale.malformed.records", "dlq", "kcscale.bulk.max.bytes", "65536"));
        List<SinkRecord> batch = List.of(
                text(0, "not json{"),
                text(1, "{\"price\":1.0,\"pad\":\"" + "x".repeat(70_000) + "\"}"),
                records(2, "not-a-number").get(0),
                text(3, "{\"price\":3.0}"),
                text(4, "{\"price\":4.0}"));
        for (SinkRecord record : batch) {
            record.headers().addString("trace-id", "t-" + record.kafkaOffset());
            record.headers().addBytes("binary", new byte[] {0, (byte) 0xFF, '\n'});
            record.headers().addString("CamelHeader.operation", "DeleteIndex");
        }

        task.put(batch);
        awaitAnswers();
        task.put(List.of());

        assertEquals(
                List.of(0L, 1L, 2L),
                reported.stream().map(SinkRecord::kafkaOffset).sorted().toList(),
                "malformed, too large, rejected");
        for (SinkRecord deadLetter : reported) {
            SinkRecord original = batch.get((int) deadLetter.kafkaOffset());
            assertEquals(original.headers(), deadLetter.headers(), "offset " + deadLetter.kafkaOffset());
            assertEquals(original.value(), deadLetter.value(), "offset " + deadLetter.kafkaOffset());
        }
        assertEquals(List.of("stocks-0-3", "stocks-0-4"), elasticsearch.indexedIds);
        assertEquals(Map.of(P0, new OffsetAndMetadata(5)), commitAfterConsuming(5));
    }

    /**
     * Records coming more often than camel.aggregation.timeout, fewer than a batch's size: Camel's timeout, which
     * restarts with each record, would never close the batch. The task closes it once its first record has waited
     * the timeout, so each record is on its way within about twice that, long before its outcome is overdue.
     */
    @Test
    void slowTrafficIsSentWithinTheAggregationTimeoutNotHeldUntilTheOutcomeTimeout() throws InterruptedException {
        start(
                false,
                Map.of(
                        "camel.aggregation.size", "1000",
                        "camel.aggregation.timeout", "300",
                        "kcscale.bulk.outcome.timeout.ms", "2000",
                        "kcscale.bulk.max.bytes", "65536"));
        // the first request of a fresh JVM loads the client's classes, which on a loaded machine takes seconds: one
        // document that fills a request on its own goes first
        task.put(List.of(text(0, "{\"price\":1.0,\"pad\":\"" + "x".repeat(65_500) + "\"}")));
        awaitAnswers();
        int records = 31;
        long every = TimeUnit.MILLISECONDS.toNanos(100);
        long[] handedOver = new long[records];
        long next = System.nanoTime();
        for (int offset = 1; offset < records; offset++) {
            // paced as a producer of 10 records/s would deliver them
            LockSupport.parkNanos(next - System.nanoTime());
            next += every;
            handedOver[offset] = System.nanoTime();
            task.put(records(offset, 1.0 + offset));
        }
        awaitAnswers();

        for (int offset = 1; offset < records; offset++) {
            long waited = elasticsearch.firstSentNanos.get("stocks-0-" + offset) - handedOver[offset];
            assertTrue(
                    Duration.ofNanos(waited).compareTo(Duration.ofSeconds(2)) < 0,
                    "record " + offset + " reached Elasticsearch after " + waited / 1_000_000 + " ms");
        }
        assertEquals(records, Set.copyOf(elasticsearch.indexedIds).size());
        assertEquals(Map.of(P0, new OffsetAndMetadata(records)), commitAfterConsuming(records));
    }
}
