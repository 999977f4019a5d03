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
        assertEquals("20 partitions for 5 tasks, 7 holding records: 4 of the 5 tasks can work (range assignment), and never "
                + "more than 7", finding.title());
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
}
