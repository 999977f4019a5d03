package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SeqNoTimelineTest {

    @Test
    void aSequenceNumberIsPlacedBetweenTheMarksAroundIt() {
        SeqNoTimeline t = new SeqNoTimeline();
        t.add(0, 1000, 9);
        t.add(0, 1100, 19);
        t.add(0, 1200, 19);
        t.add(0, 1300, 29);
        // 10 of (9, 19] at a tenth of the way, 29 at the end of the third interval
        assertEquals(1010, t.indexedAt(0, 10).getAsDouble(), 1e-9);
        assertEquals(1100, t.indexedAt(0, 19).getAsDouble(), 1e-9);
        assertEquals(1300, t.indexedAt(0, 29).getAsDouble(), 1e-9);
        assertTrue(t.indexedAt(0, 9).isEmpty(), "at or before the first mark: unplaceable");
        assertTrue(t.indexedAt(0, 30).isEmpty(), "after the last mark");
        assertTrue(t.indexedAt(1, 10).isEmpty(), "another shard");
    }

    @Test
    void theSequenceNumberAtATimeIsTheLastMarkNotAfterIt() {
        SeqNoTimeline t = new SeqNoTimeline();
        t.add(2, 1000, 5);
        t.add(2, 2000, 50);
        assertTrue(t.maxSeqNoAt(2, 999).isEmpty());
        assertEquals(5, t.maxSeqNoAt(2, 1999).getAsLong());
        assertEquals(50, t.maxSeqNoAt(2, 5000).getAsLong());
    }

    @Test
    void percentilesAreNearestRank() {
        Percentiles p = new Percentiles(new double[] {5, 1, 4, 2, 3, 6, 7, 8, 9, 10});
        assertEquals(5, p.at(0.5));
        assertEquals(10, p.at(0.99));
        assertEquals(1, p.at(0.01));
        assertEquals(10, p.size());
    }
}
