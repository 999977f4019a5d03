package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class PendingRecordsTest {

    private static final TopicPartition P0 = new TopicPartition("stocks", 0);
    private static final TopicPartition P1 = new TopicPartition("stocks", 1);
    private static final Map<TopicPartition, OffsetAndMetadata> CONSUMED = Map.of(P0, new OffsetAndMetadata(13), P1, new OffsetAndMetadata(7));

    private final PendingRecords pending = new PendingRecords();

    private static RecordCoordinates at(int partition, long offset) {
        return new RecordCoordinates("stocks", partition, offset);
    }

    private static List<Long> offsets(List<SinkRecord> records) {
        return records.stream().map(SinkRecord::kafkaOffset).toList();
    }

    private void handOver(int partition, long from, long to) {
        for (long offset = from; offset < to; offset++) {
            pending.handedOver(List.of(Records.trade("stocks", partition, offset)));
        }
    }

    @Test
    void eachPartitionCommitsUpToItsOldestUnindexedRecord() {
        handOver(0, 10, 13);
        handOver(1, 5, 7);

        pending.indexed(List.of(at(0, 10)));
        pending.indexed(List.of(at(0, 12)));
        pending.indexed(List.of(at(1, 5)));
        pending.indexed(List.of(at(1, 6)));

        assertEquals(Map.of(P0, new OffsetAndMetadata(11), P1, new OffsetAndMetadata(7)), pending.committable(CONSUMED));
    }

    @Test
    void nothingPendingReleasesWhatConnectConsumed() {
        assertEquals(CONSUMED, pending.committable(CONSUMED));
    }

    @Test
    void aRejectedRecordHoldsItsOffsetUntilTheTaskHasReportedIt() {
        handOver(0, 10, 13);
        pending.indexed(List.of(at(0, 10)));
        pending.indexed(List.of(at(0, 12)));
        pending.rejected(at(0, 11), "mapper_parsing_exception");

        assertEquals(new OffsetAndMetadata(11), pending.committable(CONSUMED).get(P0));
        List<PendingRecords.Rejection> rejections = pending.takeRejections();
        assertEquals(1, rejections.size());
        assertEquals(11, rejections.get(0).record().kafkaOffset());
        assertEquals("Elasticsearch rejected document stocks-0-11: mapper_parsing_exception", rejections.get(0).reason());
        assertEquals(List.of(), pending.takeRejections(), "a rejection is handed out once");

        pending.settled(rejections.get(0).record());
        assertEquals(new OffsetAndMetadata(13), pending.committable(CONSUMED).get(P0));
    }

    @Test
    void theRecordsOfAFailedRequestHoldBackTheirPartitionsOnlyAndAreHandedOutOnceToBeSentAgain() {
        handOver(0, 10, 13);
        handOver(1, 5, 7);
        pending.indexed(List.of(at(1, 5), at(1, 6)));
        pending.failed(List.of(at(0, 11), at(0, 12)), "connection refused");
        pending.failed(List.of(at(0, 11)), "connection refused again");

        assertEquals(Map.of(P0, new OffsetAndMetadata(10), P1, new OffsetAndMetadata(7)), pending.committable(CONSUMED));
        PendingRecords.Retry retry = pending.takeRetry().orElseThrow();
        assertEquals(List.of(11L, 12L), offsets(retry.records()));
        assertEquals("a bulk request of 2 documents failed: connection refused", retry.reason(), "its records had failed already");
        assertEquals(Optional.empty(), pending.takeRetry(), "handed out once");
        assertEquals(new OffsetAndMetadata(10), pending.committable(CONSUMED).get(P0), "sent again, still not indexed");

        pending.indexed(List.of(at(0, 10), at(0, 11), at(0, 12)));
        assertEquals(CONSUMED, pending.committable(CONSUMED));
    }

    /** The sequence: one failure on two partitions, then a cooperative rebalance revokes only one of them. */
    @Test
    void revokingOnePartitionOfAFailedRequestNeitherReleasesTheOtherNorKeepsTheRevokedOne() {
        handOver(0, 10, 13);
        handOver(1, 5, 7);
        pending.failed(List.of(at(0, 10), at(0, 11), at(0, 12), at(1, 5), at(1, 6)), "connection refused");

        pending.forget(List.of(P0));

        assertEquals(Map.of(P1, new OffsetAndMetadata(5)), pending.committable(Map.of(P1, new OffsetAndMetadata(7))),
                "partition 1 is not committed past its unindexed records");
        PendingRecords.Retry retry = pending.takeRetry().orElseThrow();
        assertEquals(List.of(new TopicPartition("stocks", 1)), retry.records().stream()
                .map(r -> new TopicPartition(r.topic(), r.kafkaPartition())).distinct().toList(), "only partition 1 is sent again");
        assertEquals(List.of(5L, 6L), offsets(retry.records()));
        assertEquals(Map.of(P0, new OffsetAndMetadata(13)), pending.committable(Map.of(P0, new OffsetAndMetadata(13))),
                "nothing of partition 0 is left: if it comes back, it starts from its committed offset");
    }

    @Test
    void outcomesOfRecordsNoLongerPendingAreIgnored() {
        handOver(0, 10, 11);
        pending.forget(List.of(P0));

        pending.failed(List.of(at(0, 10)), "late failure of a revoked partition's batch");
        pending.rejected(at(0, 10), "late rejection");
        pending.indexed(List.of(at(3, 99)));

        assertEquals(Optional.empty(), pending.takeRetry());
        assertTrue(pending.takeRejections().isEmpty());
        assertEquals(CONSUMED, pending.committable(CONSUMED));
    }

    @Test
    void aRevokedPartitionTakesItsRejectionsAlong() {
        handOver(0, 10, 11);
        handOver(1, 5, 6);
        pending.rejected(at(0, 10), "conflict");
        pending.rejected(at(1, 5), "conflict");

        pending.forget(List.of(P0));

        assertEquals(List.of(5L), pending.takeRejections().stream().map(r -> r.record().kafkaOffset()).toList());
    }

    @Test
    void theTaskWaitsForAnswersOnlyWhileTooManyRecordsAwaitOne() throws InterruptedException {
        handOver(0, 10, 13);
        pending.rejected(at(0, 12), "conflict");

        assertTrue(pending.awaitAnswersBelow(3, Duration.ZERO), "a rejected record has its answer");
        assertFalse(pending.awaitAnswersBelow(2, Duration.ofMillis(20)), "records 10 and 11 await an answer");

        pending.failed(List.of(at(0, 10)), "connection refused");
        assertTrue(pending.awaitAnswersBelow(1, Duration.ZERO), "the failed records wait to be sent again, not for an answer");
    }
}
