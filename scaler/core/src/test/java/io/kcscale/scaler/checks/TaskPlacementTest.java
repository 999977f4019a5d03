package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.model.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
        assertEquals(
                busy,
                TaskPlacement.busyTasks("range", 20, SYMBOLS, tasks)
                        .orElseThrow()
                        .size());
    }

    @Test
    void symbolKeysNameTheBusyTasks() {
        // 5 tasks take [0-3] [4-7] [8-11] [12-15] [16-19]: task 3's range holds no record
        assertEquals(
                List.of(0, 1, 2, 4),
                TaskPlacement.busyTasks("range", 20, SYMBOLS, 5).orElseThrow());
        // 7 tasks take [0-2] [3-5] [6-8] [9-11] [12-14] [15-17] [18-19]: task 4 idle
        assertEquals(
                List.of(0, 1, 2, 3, 5, 6),
                TaskPlacement.busyTasks("range", 20, SYMBOLS, 7).orElseThrow());
    }

    @Test
    void sideKeysKeepTwoTasksBusyAtMost() {
        assertEquals(List.of(0), TaskPlacement.busyTasks("range", 20, SIDES, 1).orElseThrow());
        assertEquals(
                List.of(0, 1), TaskPlacement.busyTasks("range", 20, SIDES, 3).orElseThrow(), "[0-6] and [7-13]");
        assertEquals(
                List.of(0, 2), TaskPlacement.busyTasks("range", 20, SIDES, 4).orElseThrow(), "[0-4] and [10-14]");
        assertEquals(
                List.of(1, 3),
                TaskPlacement.busyTasks("roundrobin", 20, SIDES, 4).orElseThrow(),
                "3 mod 4, 13 mod 4");
        assertEquals(
                List.of(3), TaskPlacement.busyTasks("roundrobin", 20, SIDES, 5).orElseThrow(), "both 3 mod 5");
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
                    assertEquals(
                            expected.get(p),
                            TaskPlacement.rangePosition(p, partitions, tasks),
                            p + " of " + partitions + " on " + tasks);
                }
            }
        }
    }

    @Test
    void membersRankByTaskIdAsText() {
        assertEquals(List.of(0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9), TaskPlacement.memberOrder(12));
        // 12 tasks on 12 partitions: partition 2 goes to the third member, task 10
        assertEquals(
                List.of(10),
                TaskPlacement.busyTasks("range", 12, List.of(2), 12).orElseThrow());
    }

    @Test
    void stickyAssignorsCannotBePredicted() {
        assertFalse(TaskPlacement.predictable("cooperative-sticky"));
        assertFalse(TaskPlacement.predictable("sticky"));
        assertFalse(TaskPlacement.predictable(""));
        assertTrue(TaskPlacement.predictable("roundrobin"));
        assertEquals(Optional.empty(), TaskPlacement.busyTasks("cooperative-sticky", 20, SYMBOLS, 5));
    }

    /** Topics of 3, 8 and 12 partitions, as the field report's production shape. */
    static final Map<String, Integer> THREE_TOPICS = Map.of("a", 3, "b", 8, "c", 12);

    @Test
    void underRangeThreeTasksGetPartitionsOfEveryTopicEachSplitOnItsOwn() {
        Map<TopicPartition, Integer> expected = new TreeMap<>();
        List.of(0, 1, 2).forEach(p -> expected.put(new TopicPartition("a", p), p));
        List.of(0, 0, 0, 1, 1, 1, 2, 2).forEach(new Dealer("b", expected)::next);
        List.of(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2).forEach(new Dealer("c", expected)::next);
        assertEquals(expected, TaskPlacement.place("range", THREE_TOPICS, 3).orElseThrow());
    }

    @Test
    void underRangeThirteenTasksOnTwentyThreePartitionsLeaveOneIdleAndTwelveIsTheBound() {
        Map<TopicPartition, Integer> placed =
                TaskPlacement.place("range", THREE_TOPICS, 13).orElseThrow();
        Set<Integer> working = new HashSet<>(placed.values());
        assertEquals(12, working.size());
        assertFalse(
                working.contains(9), "task 9 ranks last by id as text (0, 1, 10, 11, 12, 2, ..., 9): the 13th member");
        assertEquals(12, TaskPlacement.tasksWithPartitionsAtMost("range", THREE_TOPICS));
        assertEquals(
                12,
                TaskPlacement.tasksWithPartitionsAtMost(null, THREE_TOPICS),
                "no members to ask: range, Kafka's default");
        assertEquals(12, TaskPlacement.tasksWithPartitionsAtMost("", THREE_TOPICS));
    }

    @Test
    void assignorsOverAllPartitionsBoundByTheirSum() {
        for (String assignor : List.of("roundrobin", "cooperative-sticky", "sticky", "uniform")) {
            assertEquals(23, TaskPlacement.tasksWithPartitionsAtMost(assignor, THREE_TOPICS), assignor);
        }
        assertEquals(
                23,
                new HashSet<>(TaskPlacement.place("roundrobin", THREE_TOPICS, 23)
                                .orElseThrow()
                                .values())
                        .size());
        assertEquals(
                Optional.empty(),
                TaskPlacement.place("cooperative-sticky", THREE_TOPICS, 3),
                "sticky: not from counts");
        assertEquals(0, TaskPlacement.tasksWithPartitionsAtMost("range", Map.of()), "no topic: no task can work");
    }

    @Test
    void roundRobinDealsTheTopicsSortedByNameThenPartitionInOneRound() {
        Map<TopicPartition, Integer> placed =
                TaskPlacement.place("roundrobin", Map.of("b", 2, "a", 3), 2).orElseThrow();
        assertEquals(
                Map.of(
                        new TopicPartition("a", 0),
                        0,
                        new TopicPartition("a", 1),
                        1,
                        new TopicPartition("a", 2),
                        0,
                        new TopicPartition("b", 0),
                        1,
                        new TopicPartition("b", 1),
                        0),
                placed);
    }

    @Test
    void everyPlacementGivesEachPartitionOneTaskAndBalancesAsItsAssignorDoes() {
        for (int a = 1; a <= 6; a++) {
            for (int b = 1; b <= 9; b++) {
                for (int n = 1; n <= 16; n++) {
                    int tasks = n;
                    Map<String, Integer> topics = Map.of("x", a, "y", b);
                    String at = a + "+" + b + " on " + tasks;
                    Map<TopicPartition, Integer> range =
                            TaskPlacement.place("range", topics, tasks).orElseThrow();
                    Map<TopicPartition, Integer> roundRobin =
                            TaskPlacement.place("roundrobin", topics, tasks).orElseThrow();
                    assertEquals(a + b, range.size(), at);
                    assertEquals(a + b, roundRobin.size(), at);
                    assertTrue(range.values().stream().allMatch(t -> t >= 0 && t < tasks), at);
                    assertEquals(Math.min(tasks, Math.max(a, b)), new HashSet<>(range.values()).size(), "range: " + at);
                    assertEquals(
                            Math.min(tasks, a + b), new HashSet<>(roundRobin.values()).size(), "round-robin: " + at);
                    for (String topic : topics.keySet()) {
                        assertSpreadWithinOne(range, topic, tasks, at);
                    }
                    assertSpreadWithinOne(roundRobin, null, tasks, at);
                    assertTrue(
                            TaskPlacement.tasksWithPartitionsAtMost("range", topics)
                                    >= new HashSet<>(range.values()).size(),
                            at);
                }
            }
        }
    }

    @Test
    void theBoundSaysWhyForSeveralTopics() {
        assertEquals(
                "range assignment assigns each of the 3 topics on its own, so of their 23 partitions at most 12 (those of"
                        + " the largest, c) go to different tasks",
                TaskPlacement.boundReason("range", THREE_TOPICS));
        assertEquals(
                "cooperative-sticky assignment spreads the 23 partitions of the 3 topics together",
                TaskPlacement.boundReason("cooperative-sticky", THREE_TOPICS));
        assertTrue(TaskPlacement.boundReason(null, THREE_TOPICS)
                .startsWith("range assignment (Kafka's default; the group has no" + " members to ask)"));
    }

    /** The partitions of {@code topic} (or of all, when null) differ by at most one between any two of the tasks. */
    private static void assertSpreadWithinOne(Map<TopicPartition, Integer> placed, String topic, int tasks, String at) {
        Map<Integer, Integer> perTask = new HashMap<>();
        for (int t = 0; t < tasks; t++) {
            perTask.put(t, 0);
        }
        placed.forEach((tp, t) -> {
            if (topic == null || topic.equals(tp.topic())) {
                perTask.merge(t, 1, Integer::sum);
            }
        });
        int most = perTask.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        int fewest = perTask.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
        assertTrue(most - fewest <= 1, (topic == null ? "all" : topic) + ": " + perTask + " at " + at);
    }

    /** Puts a topic's partitions, in order, on the tasks given one by one. */
    private static final class Dealer {
        private final String topic;
        private final Map<TopicPartition, Integer> into;
        private int partition;

        Dealer(String topic, Map<TopicPartition, Integer> into) {
            this.topic = topic;
            this.into = into;
        }

        void next(int task) {
            into.put(new TopicPartition(topic, partition++), task);
        }
    }
}
