package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PendingRecordsTest {

    private static final TopicPartition P0 = new TopicPartition("stocks", 0);
    private static final TopicPartition P1 = new TopicPartition("stocks", 1);
    private static final Map<TopicPartition, OffsetAndMetadata> CONSUMED =
            Map.of(P0, new OffsetAndMetadata(13), P1, new OffsetAndMetadata(7));

    /** Three sends, pauses of 100 ms doubling up to 1 s, each drawn at three quarters of its span. */
    private static final RetrySchedule SCHEDULE =
            new RetrySchedule(3, Duration.ofMillis(100), Duration.ofSeconds(1), () -> 0.5);

    private final AtomicLong clock = new AtomicLong();
    private final PendingRecords pending = new PendingRecords(SCHEDULE, clock::get);

    private void advance(Duration by) {
        clock.addAndGet(by.toNanos());
    }

    private static RecordCoordinates at(int partition, long offset) {
        return new RecordCoordinates("stocks", partition, offset);
    }

    private static List<Long> offsets(List<Document> documents) {
        return documents.stream()
                .map(document -> document.record().kafkaOffset())
                .toList();
    }

    private void handOver(int partition, long from, long to) {
        for (long offset = from; offset < to; offset++) {
            pending.handedOver(List.of(Records.document(Records.trade("stocks", partition, offset))));
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

        assertEquals(
                Map.of(P0, new OffsetAndMetadata(11), P1, new OffsetAndMetadata(7)), pending.committable(CONSUMED));
    }

    @Test
    void requestsAnsweredOutOfOrderReleaseNothingPastTheOldestUnanswered() {
        handOver(0, 10, 13);
        handOver(1, 5, 7);

        // the second request (records 12 of partition 0, 5 and 6 of partition 1) is answered first
        pending.indexed(List.of(at(0, 12), at(1, 5), at(1, 6)));
        assertEquals(
                Map.of(P0, new OffsetAndMetadata(10), P1, new OffsetAndMetadata(7)), pending.committable(CONSUMED));

        pending.indexed(List.of(at(0, 10), at(0, 11)));
        assertEquals(CONSUMED, pending.committable(CONSUMED));
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
        assertEquals(
                "Elasticsearch rejected document stocks-0-11: mapper_parsing_exception",
                rejections.get(0).reason());
        assertEquals(List.of(), pending.takeRejections(), "a rejection is handed out once");

        pending.settled(rejections.get(0).record());
        assertEquals(new OffsetAndMetadata(13), pending.committable(CONSUMED).get(P0));
    }

    @Test
    void theRecordsOfAFailedRequestHoldBackTheirPartitionsOnlyAndAreHandedOutOnceTheirBackoffHasPassed() {
        handOver(0, 10, 13);
        handOver(1, 5, 7);
        pending.indexed(List.of(at(1, 5), at(1, 6)));
        pending.failed(List.of(at(0, 11), at(0, 12)), "connection refused");

        assertEquals(
                Map.of(P0, new OffsetAndMetadata(10), P1, new OffsetAndMetadata(7)), pending.committable(CONSUMED));
        assertEquals(Optional.of(Duration.ofMillis(75)), pending.untilNextRetry());
        advance(Duration.ofMillis(74));
        assertEquals(List.of(), pending.takeDueRetries(), "not before the back-off");
        advance(Duration.ofMillis(1));
        assertEquals(List.of(11L, 12L), offsets(pending.takeDueRetries()));
        assertEquals(List.of(), pending.takeDueRetries(), "handed out once");
        assertEquals(Optional.empty(), pending.untilNextRetry());
        assertEquals(new OffsetAndMetadata(10), pending.committable(CONSUMED).get(P0), "sent again, still not indexed");

        pending.indexed(List.of(at(0, 10), at(0, 11), at(0, 12)));
        assertEquals(CONSUMED, pending.committable(CONSUMED));
    }

    @Test
    void eachFailureOfARecordDoublesItsBackoff() {
        handOver(0, 10, 11);
        pending.failed(List.of(at(0, 10)), "429 Too Many Requests");
        advance(Duration.ofMillis(75));
        assertEquals(1, pending.takeDueRetries().size());

        pending.failed(List.of(at(0, 10)), "429 Too Many Requests");
        assertEquals(Optional.of(Duration.ofMillis(150)), pending.untilNextRetry());
        assertEquals(Optional.empty(), pending.failure());
    }

    @Test
    void aRecordRefusedAsOftenAsTheScheduleAllowsStopsTheTaskNamingItsPartitionAndWhatToChange() {
        handOver(0, 10, 12);
        handOver(1, 5, 6);
        for (int send = 1; send <= 3; send++) {
            pending.failed(List.of(at(0, 10), at(0, 11), at(1, 5)), "429 Too Many Requests");
            advance(Duration.ofSeconds(1));
            pending.takeDueRetries();
        }

        assertEquals(
                Optional.of(
                        "Elasticsearch rejected 2 documents of topic-partition stocks-0 3 times (429 Too Many Requests); "
                                + "Elasticsearch rejected 1 document of topic-partition stocks-1 3 times (429 Too Many Requests): "
                                + "raise kcscale.retry.max.attempts, lower tasks.max or grow the cluster"),
                pending.failure());
        assertEquals(new OffsetAndMetadata(10), pending.committable(CONSUMED).get(P0), "never committed past them");
    }

    @Test
    void aRequestRefusedForGoodStopsTheTask() {
        handOver(0, 10, 12);
        pending.refused(
                List.of(at(0, 10), at(0, 11)), "400 Bad Request: the bulk request must be terminated by a newline");

        assertEquals(
                Optional.of(
                        "Elasticsearch refused 2 documents, from topic stocks, partition 0, offset 10, for a reason no "
                                + "document is to blame for: 400 Bad Request: the bulk request must be terminated by a newline. Sending again cannot "
                                + "help and the dead-letter topic is for bad documents, so the task stops before committing past them; restart it "
                                + "once the cause is fixed"),
                pending.failure());
        assertEquals(List.of(), pending.takeDueRetries());
    }

    /** Camel's aggregator can drop a record without an exception: nothing would ever settle it. */
    @Test
    void aRecordWithoutAnOutcomeWithinTheBoundIsSentAgainAndItsPartitionStillWaits() {
        handOver(0, 10, 13);
        pending.indexed(List.of(at(0, 10), at(0, 12)));
        Duration bound = Duration.ofSeconds(180);

        advance(bound);
        pending.expireOverdue(bound);
        assertEquals(1, pending.awaitingAnswer(), "not before the bound has passed");

        advance(Duration.ofNanos(1));
        pending.expireOverdue(bound);
        assertEquals(0, pending.awaitingAnswer());
        advance(Duration.ofSeconds(1));
        assertEquals(List.of(11L), offsets(pending.takeDueRetries()), "sent again after its back-off");
        assertEquals(new OffsetAndMetadata(11), pending.committable(CONSUMED).get(P0), "its partition waits for it");

        advance(bound.plusNanos(1));
        pending.expireOverdue(bound);
        assertEquals(Optional.empty(), pending.failure(), "a second send is allowed");
        advance(Duration.ofSeconds(10));
        pending.takeDueRetries();
        advance(bound.plusNanos(1));
        pending.expireOverdue(bound);
        assertTrue(
                pending.failure()
                        .orElseThrow()
                        .startsWith("Elasticsearch rejected 1 document of topic-partition stocks-0 3 times "
                                + "(no outcome within 180000 ms (kcscale.bulk.outcome.timeout.ms))"),
                pending.failure().toString());
    }

    @Test
    void inFlightBytesAreTheBytesOfThePendingDocuments() {
        handOver(0, 10, 12);
        long each = Records.document(Records.trade("stocks", 0, 10)).size();
        assertEquals(2 * each, pending.inFlightBytes());

        pending.indexed(List.of(at(0, 10)));
        assertEquals(each, pending.inFlightBytes());
        pending.forget(List.of(P0));
        assertEquals(0, pending.inFlightBytes());
    }

    @Test
    void recordsWaitingToBeSentAgainCountAsInFlight() {
        handOver(0, 10, 13);
        pending.failed(List.of(at(0, 10), at(0, 11)), "503 Service Unavailable");
        pending.rejected(at(0, 12), "conflict");

        assertEquals(3, pending.inFlight());
        assertEquals(0, pending.awaitingAnswer());
    }

    /** The sequence: one failure on two partitions, then a cooperative rebalance revokes only one of them. */
    @Test
    void revokingOnePartitionOfAFailedRequestNeitherReleasesTheOtherNorKeepsTheRevokedOne() {
        handOver(0, 10, 13);
        handOver(1, 5, 7);
        pending.failed(List.of(at(0, 10), at(0, 11), at(0, 12), at(1, 5), at(1, 6)), "connection refused");

        pending.forget(List.of(P0));

        assertEquals(
                Map.of(P1, new OffsetAndMetadata(5)),
                pending.committable(Map.of(P1, new OffsetAndMetadata(7))),
                "partition 1 is not committed past its unindexed records");
        advance(Duration.ofSeconds(1));
        List<Document> retry = pending.takeDueRetries();
        assertEquals(
                List.of(new TopicPartition("stocks", 1)),
                retry.stream()
                        .map(r -> new TopicPartition(
                                r.record().topic(), r.record().kafkaPartition()))
                        .distinct()
                        .toList(),
                "only partition 1 is sent again");
        assertEquals(List.of(5L, 6L), offsets(retry));
        assertEquals(
                Map.of(P0, new OffsetAndMetadata(13)),
                pending.committable(Map.of(P0, new OffsetAndMetadata(13))),
                "nothing of partition 0 is left: if it comes back, it starts from its committed offset");
    }

    @Test
    void outcomesOfRecordsNoLongerPendingAreIgnored() {
        handOver(0, 10, 11);
        pending.forget(List.of(P0));

        pending.failed(List.of(at(0, 10)), "late failure of a revoked partition's batch");
        pending.rejected(at(0, 10), "late rejection");
        pending.indexed(List.of(at(3, 99)));

        pending.refused(List.of(at(0, 10)), "late refusal");
        advance(Duration.ofSeconds(1));

        assertEquals(List.of(), pending.takeDueRetries());
        assertEquals(Optional.empty(), pending.failure());
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

        assertEquals(
                List.of(5L),
                pending.takeRejections().stream()
                        .map(r -> r.record().kafkaOffset())
                        .toList());
    }

    /**
     * A record sent again for want of an outcome may be refused by both its requests, the second answer coming before
     * the task has taken the first or while it writes its report: the record is reported once.
     */
    @Test
    void aRecordRejectedByTwoRequestsIsReportedOnce() {
        handOver(0, 10, 11);
        pending.rejected(at(0, 10), "conflict");
        pending.rejected(at(0, 10), "conflict");

        List<PendingRecords.Rejection> taken = pending.takeRejections();
        assertEquals(1, taken.size());
        pending.rejected(at(0, 10), "conflict");
        pending.settled(taken.get(0).record());

        assertEquals(List.of(), pending.takeRejections());
        assertEquals(CONSUMED.get(P0), pending.committable(CONSUMED).get(P0));
    }

    @Test
    void aRecordRefusedForGoodIsNotSentAgain() {
        handOver(0, 10, 11);
        pending.failed(List.of(at(0, 10)), "no outcome within 1000 ms");
        pending.rejected(at(0, 10), "conflict");
        pending.failed(List.of(at(0, 10)), "429 Too Many Requests");
        advance(Duration.ofSeconds(1));

        assertEquals(List.of(), pending.takeDueRetries());
        assertEquals(Optional.empty(), pending.untilNextRetry());
        assertEquals(1, pending.takeRejections().size());
        assertEquals(0, pending.awaitingAnswer());
    }

    /** Answered as indexed by one request before the task took another's refusal: it is in the index, and only there. */
    @Test
    void aRecordIndexedBeforeItsRejectionIsTakenIsNotReported() {
        handOver(0, 10, 11);
        pending.rejected(at(0, 10), "conflict");
        pending.indexed(List.of(at(0, 10)));

        assertEquals(List.of(), pending.takeRejections());
        assertEquals(CONSUMED.get(P0), pending.committable(CONSUMED).get(P0));
    }
}
