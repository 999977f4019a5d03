package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The per-record task on a real Camel route, against a fake Elasticsearch. */
class PerRecordSinkTaskTest {

    private final FakeElasticsearch elasticsearch = new FakeElasticsearch();
    private final AtomicLong nanos = new AtomicLong();
    private final PerRecordSinkTask task = new PerRecordSinkTask(nanos::get);
    private final List<String> deadLetters = new ArrayList<>();
    /** The records handed to the dead-letter reporter, as the task handed them. */
    private final List<SinkRecord> reported = new ArrayList<>();

    private final List<Long> pollTimeouts = new ArrayList<>();

    PerRecordSinkTaskTest() throws IOException {}

    @AfterEach
    void stop() {
        task.stop();
        elasticsearch.close();
    }

    /** With errors.tolerance=all, Connect hands the task a reporter, dead-letter topic or not. */
    private void startWithReporter(Map<String, String> more) {
        task.initialize(new TaskContext(
                (record, error) -> {
                    deadLetters.add(record.kafkaOffset() + ": " + error.getMessage());
                    reported.add(record);
                    return CompletableFuture.completedFuture(null);
                },
                pollTimeouts));
        Map<String, String> tolerant = new HashMap<>(more);
        tolerant.put("errors.tolerance", "all");
        start(tolerant);
    }

    private void start(Map<String, String> more) {
        Map<String, String> config = new HashMap<>(Map.of(
                "topics",
                "stocks",
                "camel.sink.url",
                "elasticsearch-rest://local?hostAddresses=" + elasticsearch.hostAndPort()
                        + "&operation=Index&indexName=stocks"));
        config.putAll(more);
        task.start(config);
    }

    /** A task's client lives as long as the task: one per start, every thread of it gone once the task stops. */
    @Test
    void aTaskStartedAgainAndAgainLeavesNoClientBehind() {
        long before = clientThreads();
        for (int start = 1; start <= 3; start++) {
            PerRecordSinkTask restarted = new PerRecordSinkTask(nanos::get);
            restarted.initialize(new TaskContext(null, pollTimeouts));
            restarted.start(Map.of(
                    "topics",
                    "stocks",
                    "camel.sink.url",
                    "elasticsearch-rest://local?hostAddresses=" + elasticsearch.hostAndPort()
                            + "&operation=Index&indexName=stocks"));
            List<SinkRecord> batch = new ArrayList<>();
            for (long offset = 0; offset < 20; offset++) {
                batch.add(Records.trade("stocks", start, offset));
            }
            restarted.put(batch);
            long running = clientThreads() - before;
            assertTrue(
                    running >= 1 && running <= Runtime.getRuntime().availableProcessors(),
                    "one client's I/O threads while the task runs, got " + running);
            restarted.stop();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (clientThreads() > before && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            assertEquals(before, clientThreads(), "start " + start + ": the stopped task's client is closed");
        }
        assertEquals(60, elasticsearch.indexedIds.size());
    }

    /** The Elasticsearch client's I/O threads alive now. */
    private static long clientThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("I/O dispatcher"))
                .count();
    }

    @Test
    void eachDocumentIsIdentifiedByItsRecordSoARedeliveryOverwritesIt() {
        start(Map.of());

        task.put(List.of(Records.text("stocks", 3, 40, "{\"price\":1.5}"), Records.trade("stocks", 3, 41)));
        task.put(List.of(Records.text("stocks", 3, 40, "{\"price\":1.5}")));

        assertEquals(List.of("stocks-3-40", "stocks-3-41", "stocks-3-40"), elasticsearch.indexedIds);
    }

    /** A producer's header once deleted the index: Camel's producer obeys CamelHeader.operation and indexName over its endpoint. */
    @Test
    void noRecordHeaderSteersTheOperationTheIndexOrTheId() {
        start(Map.of());
        SinkRecord hostile = Records.text("stocks", 3, 40, "{\"price\":1.5}");
        hostile.headers().addString("CamelHeader.operation", "DeleteIndex");
        hostile.headers().addString("CamelHeader.indexName", "other");
        hostile.headers().addString("CamelHeader.indexId", "chosen");
        hostile.headers().addString("CamelProperty.CamelAggregationCompleteAllGroups", "true");

        task.put(List.of(hostile));

        assertEquals(List.of("stocks-3-40"), elasticsearch.indexedIds);
        assertEquals(1, elasticsearch.documentRequests.get());
    }

    @Test
    void aRecordDeadLetteredBeforeItsBatchWentBackIsNotWrittenAgainOnRedelivery() {
        startWithReporter(Map.of(
                "errors.deadletterqueue.topic.name",
                "stocks-dlq",
                "kcscale.malformed.records",
                "dlq",
                "kcscale.retry.backoff.initial.ms",
                "100",
                "kcscale.retry.backoff.max.ms",
                "100"));
        elasticsearch.refusingWith = 503;
        List<SinkRecord> batch = List.of(Records.text("stocks", 3, 40, "not json{"), Records.trade("stocks", 3, 41));
        assertThrows(RetriableException.class, () -> task.put(batch));

        elasticsearch.refusingWith = 0;
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        task.put(batch);

        assertEquals(1, deadLetters.size(), deadLetters.toString());
        assertEquals(List.of("stocks-3-41"), elasticsearch.indexedIds);
    }

    @Test
    void aRefusalNoDocumentIsToBlameForStopsTheTaskAndDeadLettersNothing() {
        startWithReporter(Map.of("errors.deadletterqueue.topic.name", "stocks-dlq"));
        elasticsearch.refusingWith = 403;

        ConnectException e =
                assertThrows(ConnectException.class, () -> task.put(List.of(Records.trade("stocks", 3, 40))));

        assertTrue(
                e.getMessage()
                        .startsWith(
                                "Elasticsearch refused document stocks-3-40 for a reason no document is to blame for: "
                                        + "403 Forbidden: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("check the credentials in camel.sink.url"), e.getMessage());
        assertEquals(List.of(), deadLetters);
    }

    @Test
    void aMalformedRecordFailsTheTaskBeforeAnyOfItsBatchIsSent() {
        start(Map.of());

        ConnectException e = assertThrows(
                ConnectException.class,
                () -> task.put(List.of(
                        Records.text("stocks", 3, 40, "{\"price\":1.5}"), Records.text("stocks", 3, 41, "not json{"))));

        assertTrue(
                e.getMessage()
                        .startsWith(
                                "the record at topic stocks, partition 3, offset 41 cannot be indexed: its value is not JSON"),
                e.getMessage());
        assertEquals(List.of(), elasticsearch.indexedIds);
    }

    @Test
    void withIgnoreTheRestOfTheBatchIsIndexed() {
        start(Map.of("kcscale.malformed.records", "ignore"));

        task.put(List.of(Records.text("stocks", 3, 40, "not json{"), Records.text("stocks", 3, 41, "{\"price\":1.5}")));

        assertEquals(List.of("stocks-3-41"), elasticsearch.indexedIds);
    }

    @Test
    void aDocumentElasticsearchRejectsGoesToTheDeadLetterTopicWithTheReason() {
        startWithReporter(Map.of("errors.deadletterqueue.topic.name", "stocks-dlq"));

        task.put(List.of(
                Records.trade("stocks", 3, 40),
                Records.trade("stocks", 3, 41, "not-a-number"),
                Records.trade("stocks", 3, 42)));

        assertEquals(List.of("stocks-3-40", "stocks-3-42"), elasticsearch.indexedIds);
        assertEquals(1, deadLetters.size());
        // Elasticsearch's error as it said it, not the client's quote of the whole answer
        assertEquals(
                "41: Elasticsearch rejected document stocks-3-41: 400 Bad Request: mapper_parsing_exception: failed to parse "
                        + "field [price] of type [double]",
                deadLetters.get(0));
    }

    @Test
    void withErrorsToleratedButNoDeadLetterTopicARejectedDocumentFailsTheTask() {
        startWithReporter(Map.of());

        ConnectException e = assertThrows(
                ConnectException.class,
                () -> task.put(
                        List.of(Records.trade("stocks", 3, 40), Records.trade("stocks", 3, 41, "not-a-number"))));

        assertTrue(
                e.getMessage().startsWith("Elasticsearch rejected document stocks-3-41: 400 Bad Request: "),
                e.getMessage());
        assertTrue(
                e.getMessage().endsWith("set errors.tolerance=all and errors.deadletterqueue.topic.name"),
                e.getMessage());
        assertEquals(
                List.of(),
                deadLetters,
                "a reporter without a topic would only log it, and the record would be committed");
    }

    @Test
    void aDocumentRefusedForNowHandsTheBatchBackForALaterDeliveryUntilTheLastAttempt() {
        startWithReporter(Map.of(
                "errors.deadletterqueue.topic.name",
                "stocks-dlq",
                "kcscale.retry.max.attempts",
                "3",
                "kcscale.retry.backoff.initial.ms",
                "100",
                "kcscale.retry.backoff.max.ms",
                "150"));
        elasticsearch.refusingWith = 429;
        List<SinkRecord> batch = List.of(Records.trade("stocks", 3, 40));

        RetriableException first = assertThrows(RetriableException.class, () -> task.put(batch));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        assertThrows(RetriableException.class, () -> task.put(batch));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(150));
        ConnectException last = assertThrows(ConnectException.class, () -> task.put(batch));

        assertTrue(
                first.getMessage()
                        .startsWith("Elasticsearch refused document stocks-3-40 for now (429 Too Many Requests: "),
                first.getMessage());
        assertEquals(2, pollTimeouts.size(), "Connect polls again after each back-off: " + pollTimeouts);
        assertTrue(
                pollTimeouts.get(0) >= 50
                        && pollTimeouts.get(0) <= 100
                        && pollTimeouts.get(1) >= 75
                        && pollTimeouts.get(1) <= 150,
                pollTimeouts.toString());
        assertTrue(
                last.getMessage()
                        .startsWith(
                                "Elasticsearch rejected 1 document of topic-partition stocks-3 3 times (429 Too Many "
                                        + "Requests: "),
                last.getMessage());
        assertTrue(
                last.getMessage().endsWith("raise kcscale.retry.max.attempts, lower tasks.max or grow the cluster"),
                last.getMessage());
        assertEquals(List.of(), deadLetters, "refused for now is not refused for good");
    }

    @Test
    void aBatchDeliveredAgainBeforeTheBackOffIsOverIsHandedBackUnsentAndCountsNoAttempt() {
        // Connect delivers a handed-back batch at its next offset commit at the latest (each second on the
        // local stack): the back-off must hold anyway, or a restart of Elasticsearch uses up every attempt
        startWithReporter(Map.of(
                "errors.deadletterqueue.topic.name",
                "stocks-dlq",
                "kcscale.retry.max.attempts",
                "2",
                "kcscale.retry.backoff.initial.ms",
                "10000",
                "kcscale.retry.backoff.max.ms",
                "10000"));
        elasticsearch.refusingWith = 503;
        List<SinkRecord> batch = List.of(Records.trade("stocks", 3, 40));
        assertThrows(RetriableException.class, () -> task.put(batch));
        int requests = elasticsearch.documentRequests.get();

        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1000));
        RetriableException early = assertThrows(RetriableException.class, () -> task.put(batch));

        assertTrue(
                early.getMessage().startsWith("waiting ")
                        && early.getMessage().contains("before sending document stocks-3-40 again"),
                early.getMessage());
        assertEquals(requests, elasticsearch.documentRequests.get(), "nothing is sent while the back-off lasts");
        long asked = pollTimeouts.get(pollTimeouts.size() - 1);
        assertTrue(asked > 0 && asked <= 9000, "the rest of the back-off, at most: " + pollTimeouts);

        elasticsearch.refusingWith = 0;
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(10_000));
        task.put(batch);
        assertEquals(
                requests + 1,
                elasticsearch.documentRequests.get(),
                "sent once the back-off is over, within its attempts");
    }

    /** 408 Request Timeout is Elasticsearch, or a proxy in front of it, out of time: the batch goes back, nothing is dead-lettered. */
    @Test
    void aRequestTimeoutHandsTheBatchBackForALaterDelivery() {
        startWithReporter(Map.of("errors.deadletterqueue.topic.name", "stocks-dlq"));
        elasticsearch.refusingWith = 408;

        RetriableException e =
                assertThrows(RetriableException.class, () -> task.put(List.of(Records.trade("stocks", 3, 40))));

        assertTrue(
                e.getMessage().startsWith("Elasticsearch refused document stocks-3-40 for now (408 Request Timeout: "),
                e.getMessage());
        assertEquals(List.of(), deadLetters);
    }

    /** The dead-letter topic gets each record as Connect handed it over, its own headers included. */
    @Test
    void eachDeadLetterIsTheRecordAsHandedOverWithItsOwnHeaders() {
        startWithReporter(
                Map.of("errors.deadletterqueue.topic.name", "stocks-dlq", "kcscale.malformed.records", "dlq"));
        List<SinkRecord> batch = List.of(
                Records.text("stocks", 3, 40, "not json{"),
                Records.trade("stocks", 3, 41, "not-a-number"),
                Records.trade("stocks", 3, 42));
        for (SinkRecord record : batch) {
            record.headers().addString("trace-id", "t-" + record.kafkaOffset());
            record.headers().addBytes("binary", new byte[] {0, (byte) 0xFF, '\n'});
            record.headers().addString("CamelHeader.indexName", "other");
        }

        task.put(batch);

        assertEquals(
                List.of(40L, 41L),
                reported.stream().map(SinkRecord::kafkaOffset).toList());
        for (SinkRecord deadLetter : reported) {
            SinkRecord original = batch.get((int) deadLetter.kafkaOffset() - 40);
            assertEquals(original.headers(), deadLetter.headers(), "offset " + deadLetter.kafkaOffset());
            assertEquals(original.value(), deadLetter.value(), "offset " + deadLetter.kafkaOffset());
        }
        assertEquals(List.of("stocks-3-42"), elasticsearch.indexedIds);
    }
}
