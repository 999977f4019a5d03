package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionCountCheckTest {

    private static final PartitionCountCheck CHECK = new PartitionCountCheck();

    @Test
    void moreTasksThanPartitionsWarnsWithTheCommandAndTheRemappingCaveat() {
        Fixture f = new Fixture();
        f.tasksWanted = 24;
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals(20, finding.evidence().get("partitions"));
        assertEquals(24, finding.evidence().get("tasksWanted"));
        assertTrue(finding.advice().contains("--alter --topic t --partitions 24"), finding.advice());
        assertTrue(finding.advice().contains("per-key order breaks"), finding.advice());
        f.tasksWanted = 20;
        assertEquals(Severity.OK, f.run(CHECK).severity(), "as many tasks as partitions is fine");
    }

    @ParameterizedTest(name = "{0} partitions on {1} brokers: {2}")
    @CsvSource({"100, 1, OK", "101, 1, WARNING", "101, 3, WARNING", "101, 4, INFO", "101, , INFO"})
    void beyondAHundredPartitionsPerTopicMattersOnSmallClusters(int partitions, Integer brokers, Severity expected) {
        Fixture f = new Fixture();
        f.partitions = partitions;
        f.brokers = brokers;
        Finding finding = f.run(CHECK);
        assertEquals(expected, finding.severity(), finding.title());
        assertEquals(100, finding.evidence().get("partitionGuideline"));
    }

    @Test
    void anUnknownPartitionCountIsInfo() {
        Fixture f = new Fixture();
        f.partitions = null;
        assertEquals(Severity.INFO, f.run(CHECK).severity());
    }

    @Test
    void saysHowManyTasksCanWorkWhenKeysReachFewPartitions() {
        Fixture f = Fixture.recordsOnlyIn(TaskPlacementTest.SYMBOLS, 4, 5);
        Finding finding = f.run(CHECK);
        assertEquals(Severity.OK, finding.severity());
        assertEquals(
                "20 partitions for 5 tasks, 7 holding records: 4 of the 5 tasks can work (range assignment), and never "
                        + "more than 7",
                finding.title());
        assertEquals(7, finding.evidence().get("partitionsWithRecords"));
        assertEquals(4, finding.evidence().get("tasksThatCanWork"));
        assertTrue(finding.advice().contains("spread the keys first"), finding.advice());
        f.groupAssignor = "cooperative-sticky";
        assertEquals(5, f.run(CHECK).evidence().get("tasksThatCanWorkAtMost"));
    }

    @Test
    void everyPartitionHoldingRecordsLeavesRoomForAsManyTasks() {
        Finding finding = new Fixture().run(CHECK);
        assertEquals("20 partitions for 3 tasks: room for up to 20 tasks", finding.title());
        assertTrue(!finding.evidence().containsKey("tasksThatCanWork"));
    }

    /** A regex sink over topics of 3, 8 and 12 partitions, asked for {@code wanted} tasks by a group using {@code assignor}. */
    static Fixture threeTopics(String assignor, int wanted) {
        Fixture f = new Fixture();
        f.topics = java.util.List.of("a", "b", "c");
        f.partitionsPerTopic = java.util.Map.of("a", 3, "b", 8, "c", 12);
        f.partitions = 23;
        f.groupAssignor = assignor;
        f.tasksWanted = wanted;
        return f;
    }

    @Test
    void underRangeOnlyTheLargestTopicsPartitionsBoundTheTasksOfASinkOfSeveralTopics() {
        Finding thirteen = threeTopics("range", 13).run(CHECK);
        assertEquals(Severity.WARNING, thirteen.severity(), thirteen.title());
        assertTrue(
                thirteen.title()
                        .startsWith("13 tasks wanted, at most 12 can get a partition: range assignment assigns each of"
                                + " the 3 topics on its own"),
                thirteen.title());
        assertEquals(12, thirteen.evidence().get("tasksWithPartitionsAtMost"));
        assertTrue(
                thirteen.advice().contains("--topic c --partitions 13")
                        && thirteen.advice().contains("cooperative-sticky"),
                thirteen.advice());
        Finding twelve = threeTopics("range", 12).run(CHECK);
        assertEquals(Severity.OK, twelve.severity(), twelve.title());
        assertTrue(
                twelve.title().startsWith("23 partitions in 3 topics for 12 tasks: room for up to 12 tasks"),
                twelve.title());
    }

    @Test
    void underCooperativeStickyThePartitionsOfAllTopicsBoundTheTasks() {
        Finding thirteen = threeTopics("cooperative-sticky", 13).run(CHECK);
        assertEquals(Severity.OK, thirteen.severity(), thirteen.title());
        assertEquals(23, thirteen.evidence().get("tasksWithPartitionsAtMost"));
        assertEquals(
                Severity.WARNING,
                threeTopics("cooperative-sticky", 24).run(CHECK).severity());
    }

    @Test
    void theHundredPartitionGuidelineHoldsPerTopic() {
        Fixture f = threeTopics("range", 3);
        f.partitionsPerTopic = java.util.Map.of("a", 60, "b", 60);
        f.topics = java.util.List.of("a", "b");
        f.partitions = 120;
        assertEquals(Severity.OK, f.run(CHECK).severity(), "120 partitions, none of the two topics above 100");
        f.partitionsPerTopic = java.util.Map.of("a", 101, "b", 19);
        Finding many = f.run(CHECK);
        assertEquals(Severity.WARNING, many.severity());
        assertTrue(many.title().startsWith("101 partitions in topic a"), many.title());
    }
}
