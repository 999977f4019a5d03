package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskPlacementTest {

    /** Where the default partitioner puts the 7 symbols in 20 partitions (murmur2 of the key, mod 20). */
    static final List<Integer> SYMBOLS = List.of(0, 4, 5, 7, 10, 17, 18);
    /** BUY and SELL in 20 partitions. */
    static final List<Integer> SIDES = List.of(3, 13);

    @ParameterizedTest(name = "symbol keys on {0} tasks: {1} busy")
    @CsvSource({"1, 1", "2, 2", "3, 3", "4, 4", "5, 4", "6, 4", "7, 6", "10, 6", "17, 6", "18, 7", "20, 7", "30, 7"})
    void symbolKeysUnderRangeKeepFourTasksBusyFromFourToSixAndAllSevenOnlyFromEighteen(int tasks, int busy) {
        assertEquals(busy, TaskPlacement.busyTasks("range", 20, SYMBOLS, tasks).orElseThrow().size());
    }

    @Test
    void symbolKeysNameTheBusyTasks() {
        // 5 tasks take [0-3] [4-7] [8-11] [12-15] [16-19]: task 3's range holds no record
        assertEquals(List.of(0, 1, 2, 4), TaskPlacement.busyTasks("range", 20, SYMBOLS, 5).orElseThrow());
        // 7 tasks take [0-2] [3-5] [6-8] [9-11] [12-14] [15-17] [18-19]: task 4 idle
        assertEquals(List.of(0, 1, 2, 3, 5, 6), TaskPlacement.busyTasks("range", 20, SYMBOLS, 7).orElseThrow());
    }

    @Test
    void sideKeysKeepTwoTasksBusyAtMost() {
        assertEquals(List.of(0), TaskPlacement.busyTasks("range", 20, SIDES, 1).orElseThrow());
        assertEquals(List.of(0, 1), TaskPlacement.busyTasks("range", 20, SIDES, 3).orElseThrow(), "[0-6] and [7-13]");
        assertEquals(List.of(0, 2), TaskPlacement.busyTasks("range", 20, SIDES, 4).orElseThrow(), "[0-4] and [10-14]");
        assertEquals(List.of(1, 3), TaskPlacement.busyTasks("roundrobin", 20, SIDES, 4).orElseThrow(), "3 mod 4, 13 mod 4");
        assertEquals(List.of(3), TaskPlacement.busyTasks("roundrobin", 20, SIDES, 5).orElseThrow(), "both 3 mod 5");
    }

    @Test
    void rangeMatchesKafkasFormulaForEveryCount() {
        for (int partitions = 1; partitions <= 40; partitions++) {
            for (int tasks = 1; tasks <= 45; tasks++) {
                int q = partitions / tasks;
                int r = partitions % tasks;
                List<Integer> expected = new ArrayList<>();
                for (int i = 0; i < tasks; i++) {
                    int start = i * q + Math.min(i, r);
                    for (int p = start; p < start + q + (i < r ? 1 : 0); p++) {
                        expected.add(i);
                    }
                }
                for (int p = 0; p < partitions; p++) {
                    assertEquals(expected.get(p), TaskPlacement.rangePosition(p, partitions, tasks), p + " of " + partitions + " on " + tasks);
                }
            }
        }
    }

    @Test
    void membersRankByTaskIdAsText() {
        assertEquals(List.of(0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9), TaskPlacement.memberOrder(12));
        // 12 tasks on 12 partitions: partition 2 goes to the third member, task 10
        assertEquals(List.of(10), TaskPlacement.busyTasks("range", 12, List.of(2), 12).orElseThrow());
    }

    @Test
    void stickyAssignorsCannotBePredicted() {
        assertFalse(TaskPlacement.predictable("cooperative-sticky"));
        assertFalse(TaskPlacement.predictable("sticky"));
        assertFalse(TaskPlacement.predictable(""));
        assertTrue(TaskPlacement.predictable("roundrobin"));
        assertEquals(Optional.empty(), TaskPlacement.busyTasks("cooperative-sticky", 20, SYMBOLS, 5));
    }
}
