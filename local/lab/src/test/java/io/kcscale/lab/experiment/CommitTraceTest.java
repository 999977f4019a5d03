package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.local.Offsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommitTraceTest {

    /** Partitions 0 and 1 belong to task 0, partition 2 to task 1; task 2 owns none. */
    private static final Map<Integer, Integer> ASSIGNMENT = Map.of(0, 0, 1, 0, 2, 1);

    private static Offsets at(double seconds, long p0, long p1, long p2) {
        return new Offsets(seconds * 1000, Map.of(0, 10_000L, 1, 10_000L, 2, 0L), Map.of(0, p0, 1, p1, 2, p2));
    }

    @Test
    void aTaskThatCommitsInStepsIsMeasuredFromItsFirstStepToItsLast() {
        CommitTrace trace = new CommitTrace(ASSIGNMENT, 3);
        // task 0 commits 500 records every 5 s: steps at 1 s, 6 s and 11 s; the window runs 0 to 12 s
        trace.add(at(0, 0, 0, 0));
        trace.add(at(1, 250, 250, 0));
        trace.add(at(5.9, 250, 250, 0));
        assertFalse(trace.stepped(3), "two steps so far");
        trace.add(at(6, 500, 500, 0));
        trace.add(at(11, 750, 750, 0));
        trace.add(at(12, 750, 750, 0));
        assertTrue(trace.stepped(3), "task 1 had nothing waiting, task 2 owns nothing: only task 0 must step");
        Throughput t = trace.throughput();
        // 1,000 records between the first step (1 s) and the last (11 s); a fixed window would say 1,500 / 12 s
        assertEquals(100, t.perTask().get(0), 1e-9);
        assertEquals(0, t.perTask().get(1));
        assertEquals(0, t.perTask().get(2));
        assertEquals(100, t.total(), 1e-9);
    }

    @Test
    void aTaskThatSteppedOnceIsMeasuredOverTheWholeTrace() {
        CommitTrace trace = new CommitTrace(Map.of(0, 0), 1);
        trace.add(new Offsets(0, Map.of(0, 1000L), Map.of(0, 0L)));
        trace.add(new Offsets(4000, Map.of(0, 1000L), Map.of(0, 400L)));
        trace.add(new Offsets(8000, Map.of(0, 1000L), Map.of(0, 400L)));
        assertEquals(50, trace.throughput().total(), 1e-9);
        assertFalse(trace.stepped(2));
    }
}
