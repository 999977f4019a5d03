package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.ExtendedExchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.Synchronization;
import org.apache.camel.support.DefaultExchange;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.elasticsearch.ElasticsearchStatusException;
import org.elasticsearch.rest.RestStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BulkIndexAggregationTest {

    private final CamelContext camel = new DefaultCamelContext();
    private static final TopicPartition P2 = new TopicPartition("stocks", 2);
    private static final Map<TopicPartition, OffsetAndMetadata> CONSUMED = Map.of(P2, new OffsetAndMetadata(43));

    /** Resends due at once, on a clock that stands still. */
    private final PendingRecords pending =
            new PendingRecords(new RetrySchedule(2, Duration.ZERO, Duration.ZERO), () -> 0);

    private final BulkIndexAggregation strategy = new BulkIndexAggregation();

    BulkIndexAggregationTest() {
        strategy.setIndexName("stocks");
    }

    @AfterEach
    void stopCamel() throws Exception {
        camel.close();
    }

    private Exchange record(long offset, Object value) {
        Exchange exchange = new DefaultExchange(camel);
        exchange.getMessage().setBody(value);
        exchange.getMessage().setHeader(RecordCoordinates.HEADER, "stocks-2-" + offset);
        return exchange;
    }

    private Exchange batchOf(Object... values) {
        Exchange batch = null;
        for (int i = 0; i < values.length; i++) {
            batch = strategy.aggregate(batch, record(40 + i, values[i]));
        }
        return batch;
    }

    @Test
    void aBatchBecomesOneBulkBodyOfIndexOperationsWithCoordinateIds() {
        Exchange batch =
                batchOf(Map.of("price", 1.5), "{\"price\":2.5}", "{\"price\":3.5}".getBytes(StandardCharsets.UTF_8));

        BulkBody bulk = batch.getMessage().getBody(BulkBody.class);
        assertEquals(3, bulk.documents());
        assertEquals("""
                {"index":{"_index":"stocks","_id":"stocks-2-40"}}
                {"price":1.5}
                {"index":{"_index":"stocks","_id":"stocks-2-41"}}
                {"price":2.5}
                {"index":{"_index":"stocks","_id":"stocks-2-42"}}
                {"price":3.5}
                """, new String(bulk.bytes(), 0, bulk.length(), StandardCharsets.UTF_8));
        assertEquals(
                List.of(40L, 41L, 42L),
                bulk.records().stream().map(RecordCoordinates::offset).toList());
    }

    @Test
    void prettyPrintedJsonKeepsToItsOneLineOfTheBody() {
        Exchange batch = batchOf("{\r\n  \"price\": 2.5,\n  \"symbol\": \"a\\nb\"\n}");

        BulkBody bulk = batch.getMessage().getBody(BulkBody.class);
        assertEquals(
                """
                {"index":{"_index":"stocks","_id":"stocks-2-40"}}
                {    "price": 2.5,   "symbol": "a\\nb" }
                """,
                new String(bulk.bytes(), 0, bulk.length(), StandardCharsets.UTF_8),
                "line breaks between tokens become spaces; an escaped one inside a string stays as it is");
    }

    /**
     * Camel's completion timeout restarts with every record: records coming more often than it would keep a batch
     * open until its size. Once its first record has waited that long, the next record closes it.
     */
    @Test
    void aBatchClosesOnceItsFirstRecordHasWaitedTheAggregationTimeout() {
        AtomicLong nanos = new AtomicLong();
        BulkIndexAggregation timed = new BulkIndexAggregation(nanos::get);
        timed.setIndexName("stocks");
        timed.setMaxWaitMs(500);

        Exchange batch = timed.aggregate(null, record(40, "{\"price\":1.5}"));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(499));
        batch = timed.aggregate(batch, record(41, "{\"price\":2.5}"));
        assertFalse(closed(batch), "its first record has waited 499 ms");
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        batch = timed.aggregate(batch, record(42, "{\"price\":3.5}"));
        assertTrue(closed(batch), "its first record has waited 500 ms");
        assertEquals(3, batch.getMessage().getBody(BulkBody.class).documents());

        Exchange next = timed.aggregate(null, record(43, "{\"price\":4.5}"));
        assertFalse(closed(next), "the next batch starts its own wait");
    }

    /** The stock task sets no bound: its batches close at their size or by Camel's timeout alone. */
    @Test
    void withoutABoundABatchWaitsForItsSize() {
        AtomicLong nanos = new AtomicLong();
        BulkIndexAggregation untimed = new BulkIndexAggregation(nanos::get);
        untimed.setIndexName("stocks");

        Exchange batch = untimed.aggregate(null, record(40, "{\"price\":1.5}"));
        nanos.addAndGet(TimeUnit.HOURS.toNanos(1));
        assertFalse(closed(untimed.aggregate(batch, record(41, "{\"price\":2.5}"))));
    }

    private static boolean closed(Exchange batch) {
        return Boolean.TRUE.equals(batch.getProperty(ExchangePropertyKey.AGGREGATION_COMPLETE_CURRENT_GROUP));
    }

    @Test
    void anIndexNameIsWrittenAsAJsonString() {
        assertEquals(
                "{\"index\":{\"_index\":\"a\\\"b\",\"_id\":\"",
                new String(BulkBody.actionStart("a\"b"), StandardCharsets.UTF_8));
    }

    @Test
    void aRecordWithoutCoordinatesNamesTheTransformToAdd() {
        Exchange bare = new DefaultExchange(camel);
        bare.getMessage().setBody(Map.of("price", 1.5));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> strategy.aggregate(null, bare));
        assertTrue(
                e.getMessage().contains("transforms.coordinates.type=io.kcscale.connectors.camel.CoordinatesHeaders"),
                e.getMessage());
    }

    @Test
    void aValueThatIsNoJsonObjectNamesTheConverterToUse() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> batchOf(42L));
        assertEquals(
                "the record at topic stocks, partition 2, offset 40 cannot be indexed: its value is a java.lang.Long, not JSON: use "
                        + "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter for JSON records",
                e.getMessage());
    }

    @Test
    void withoutAnIndexNameTheStrategySaysWhichPropertyToSet() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> new BulkIndexAggregation().aggregate(null, record(1, Map.of())));
        assertEquals("set camel.beans.aggregate.indexName to the index the documents go to", e.getMessage());
    }

    @Test
    void theAnswerReachesTheTasksPendingRecordsItemByItem() {
        Exchange batch = batchOf(Map.of("price", 1.5), Map.of("price", "x"), Map.of("price", 3.5));
        Synchronization completion = registeredCompletion(batch);

        batch.getMessage().setBody(BulkAnswer.of(new int[] {201, 400, 429}, new BulkAnswer.Error[] {
            null,
            new BulkAnswer.Error("mapper_parsing_exception", "mapper_parsing_exception: failed to parse field [price]"),
            new BulkAnswer.Error("es_rejected_execution_exception", "es_rejected_execution_exception: queue full")
        }));
        completion.onComplete(batch);

        assertEquals(new OffsetAndMetadata(41), pending.committable(CONSUMED).get(P2), "41 and 42 are not indexed");
        List<PendingRecords.Rejection> rejections = pending.takeRejections();
        assertEquals(1, rejections.size());
        assertEquals(
                "Elasticsearch rejected document stocks-2-41: mapper_parsing_exception: failed to parse field [price]",
                rejections.get(0).reason());
        assertEquals(
                List.of(42L),
                pending.takeDueRetries().stream()
                        .map(d -> d.record().kafkaOffset())
                        .toList(),
                "an overloaded node is worth another send, of the refused item only");
    }

    @Test
    void aRequestThatFailsAsAWholeForNowFailsEveryRecordInIt() {
        Exchange batch = batchOf(Map.of("price", 1.5), Map.of("price", 2.5));
        Synchronization completion = registeredCompletion(batch);

        batch.setException(new java.net.ConnectException("Connection refused"));
        completion.onFailure(batch);

        assertEquals(
                List.of(40L, 41L),
                pending.takeDueRetries().stream()
                        .map(d -> d.record().kafkaOffset())
                        .toList());
        assertEquals(Optional.empty(), pending.failure());
    }

    @Test
    void aRequestRefusedAsAWholeForGoodStopsTheTask() {
        Exchange batch = batchOf(Map.of("price", 1.5), Map.of("price", 2.5));
        Synchronization completion = registeredCompletion(batch);

        batch.setException(new ElasticsearchStatusException("request body is required", RestStatus.BAD_REQUEST));
        completion.onFailure(batch);

        assertEquals(List.of(), pending.takeDueRetries());
        assertTrue(
                pending.failure()
                        .orElseThrow()
                        .contains(
                                "the bulk request as a whole: 400 Bad Request: request body is required. Sending again cannot help"),
                pending.failure().toString());
    }

    /** Hands the batch's records to a task's {@link PendingRecords} and returns what the strategy registers on the batch. */
    private Synchronization registeredCompletion(Exchange batch) {
        for (long offset = 40;
                offset < 40 + batch.getMessage().getBody(BulkBody.class).documents();
                offset++) {
            pending.handedOver(List.of(Records.document(Records.trade("stocks", 2, offset))));
        }
        String id = PendingRecordsRegistry.register(pending, new BulkRequestTrace());
        try {
            strategy.setPendingRecords(id);
            strategy.onCompletion(batch);
        } finally {
            PendingRecordsRegistry.unregister(id);
        }
        List<Synchronization> registered = batch.adapt(ExtendedExchange.class).handoverCompletions();
        assertEquals(1, registered.size());
        return registered.get(0);
    }
}
