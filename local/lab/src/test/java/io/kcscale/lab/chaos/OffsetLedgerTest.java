package io.kcscale.lab.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OffsetLedgerTest {

    private static final Set<OffsetLedger.Coordinates> MALFORMED = Set.of(new OffsetLedger.Coordinates(1, 2));

    /** Partition 0 holds offsets 0-3, partition 1 offsets 0-4 of which 2 is malformed, partition 2 none. */
    private static OffsetLedger ledger() {
        return new OffsetLedger("stocks-x", Map.of(0, 4L, 1, 5L, 2, 0L), Map.of(0, 4L, 1, 5L), MALFORMED);
    }

    private static void indexAllWellFormed(OffsetLedger l) {
        for (String id : List.of(
                "stocks-x-0-0",
                "stocks-x-0-1",
                "stocks-x-0-2",
                "stocks-x-0-3",
                "stocks-x-1-0",
                "stocks-x-1-1",
                "stocks-x-1-3",
                "stocks-x-1-4")) {
            l.indexed(id);
        }
    }

    @Test
    void everyWellFormedRecordIndexedOnceAndTheMalformedOneDeadLetteredIsExact() {
        OffsetLedger l = ledger();
        indexAllWellFormed(l);
        l.deadLettered(1, 2);
        assertEquals(new Reconciliation(9, 8, 0, 0, 0, 1, 1, List.of()), l.result());
    }

    @Test
    void aMissingIdIsLostAndNamed() {
        OffsetLedger l = new OffsetLedger("stocks-x", Map.of(0, 4L, 1, 5L), Map.of(0, 4L, 1, 5L), MALFORMED);
        for (String id : List.of("stocks-x-0-0", "stocks-x-0-2", "stocks-x-1-0", "stocks-x-1-1", "stocks-x-1-3")) {
            l.indexed(id);
        }
        Reconciliation r = l.result();
        assertEquals(3, r.lost());
        assertEquals(5, r.indexed());
        assertEquals(
                List.of("stocks-x-0-1", "stocks-x-0-3", "stocks-x-1-4"),
                r.lostExamples(),
                "the malformed offset is not lost");
    }

    @Test
    void anIdSeenTwiceOrNoRecordsIdOrTheMalformedRecordsIdIsDuplicated() {
        OffsetLedger l = ledger();
        indexAllWellFormed(l);
        l.indexed("stocks-x-0-1");
        l.indexed("stocks-x-0-4"); // past the partition's end
        l.indexed("stocks-x-7-0"); // a partition the topic does not have
        l.indexed("other-0-0"); // another topic
        l.indexed("a1b2c3"); // an id Elasticsearch made up
        l.indexed("stocks-x-1-2"); // the malformed record, indexed after all
        Reconciliation r = l.result();
        assertEquals(6, r.duplicated());
        assertEquals(8, r.indexed());
        assertEquals(0, r.lost());
    }

    @Test
    void malformedRecordsCountOnlyWhenTheirOwnOffsetsReachTheDeadLetterTopic() {
        OffsetLedger l = ledger();
        indexAllWellFormed(l);
        l.deadLettered(0, 1);
        l.deadLettered(1, 2);
        l.deadLettered(1, 2);
        Reconciliation r = l.result();
        assertEquals(1, r.malformed());
        assertEquals(
                1, r.malformedToDeadLetter(), "a record dead-lettered twice counts once, a well-formed one not at all");
    }

    @Test
    void lostExamplesAreBounded() {
        OffsetLedger l = new OffsetLedger("stocks", Map.of(0, 1000L), Map.of(0, 1000L), Set.of());
        Reconciliation r = l.result();
        assertEquals(1000, r.lost());
        assertEquals(OffsetLedger.LOST_EXAMPLES, r.lostExamples().size());
    }

    @Test
    void aMissingIdAtOrPastTheCommittedOffsetIsPendingNotLost() {
        OffsetLedger l = new OffsetLedger("stocks-x", Map.of(0, 4L, 1, 5L), Map.of(0, 2L), MALFORMED);
        for (String id : List.of("stocks-x-0-0", "stocks-x-0-2", "stocks-x-1-0")) {
            l.indexed(id);
        }
        Reconciliation r = l.result();
        assertEquals(1, r.lost(), "0-1 is below the committed offset 2");
        assertEquals(List.of("stocks-x-0-1"), r.lostExamples());
        assertEquals(4, r.pending(), "0-3 and 1-1, 1-3, 1-4 (1-2 is malformed; partition 1 has no commit)");
    }
}
