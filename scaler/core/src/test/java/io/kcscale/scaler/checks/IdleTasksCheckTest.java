package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.keys.DistinctCounter;
import io.kcscale.scaler.checks.keys.KeySample;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class IdleTasksCheckTest {

    private static final IdleTasksCheck CHECK = new IdleTasksCheck();

    @Test
    void everyTaskWithRecordsIsOk() {
        Finding f = new Fixture().run(CHECK);
        assertEquals(Severity.OK, f.severity(), f.title());
        assertEquals(List.of(), f.evidence().get("idleTasks"));
        assertEquals(200.0, f.evidence().get("appendPerSecond"));
    }

    @Test
    void aTaskWhosePartitionsGetNothingIsStarved() {
        Fixture f = new Fixture();
        // two keys: records reach partitions 3 and 9 only, owned by task 0 (3 and 9 are 0 mod 3)
        f.appendPerPartition = Fixture.uniform(20, 0);
        f.appendPerPartition.put(3, 60.0);
        f.appendPerPartition.put(9, 40.0);
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals(List.of(1, 2), finding.evidence().get("starvedTasks"));
        assertEquals(List.of(1, 2), finding.evidence().get("idleTasks"));
        assertTrue(finding.title().startsWith("tasks [1, 2] got no records"), finding.title());
        assertTrue(finding.advice().contains("see key-cardinality"), finding.advice());
    }

    @Test
    void tooFewRecordsToExpectAnyOnATasksPartitionsAreNoStarvation() {
        Fixture f = new Fixture();
        // 2/s in all, over 10 s: 1 record expected per partition, 7 on task 1's 7 partitions, 6 on task 2's
        f.appendPerPartition = Fixture.uniform(20, 0);
        f.appendPerPartition.put(3, 2.0);
        Finding sparse = f.run(CHECK);
        assertEquals(List.of(), sparse.evidence().get("starvedTasks"), sparse.toString());
        assertEquals(Severity.OK, sparse.severity());
        // 2.9/s: 10.15 expected on task 1's partitions (none came: starved), 8.7 on task 2's (could be chance)
        f.appendPerPartition.put(3, 2.9);
        assertEquals(List.of(1), f.run(CHECK).evidence().get("starvedTasks"));
    }

    @Test
    void aTaskWithoutPartitionsAndTasksBeyondThePartitionsAreIdle() {
        Fixture f = new Fixture();
        f.partitions = 2;
        f.appendPerPartition = Fixture.uniform(2, 10);
        f.assignment = new TreeMap<>(Map.of(0, List.of(0), 1, List.of(1), 2, List.of()));
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertEquals(List.of(2), finding.evidence().get("tasksWithoutPartitions"));
        assertTrue(finding.title().contains("task 2 has no partition"), finding.title());
        assertTrue(finding.title().contains("3 tasks for 2 partitions: 1 would sit idle"), finding.title());
        assertTrue(finding.advice().contains("set tasks.max to at most 2"), finding.advice());
    }

    @Test
    void askingForMoreTasksThanPartitionsWarnsBeforeTheyExist() {
        Fixture f = new Fixture();
        f.tasksWanted = 21;
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity());
        assertTrue(finding.title().equals("21 tasks for 20 partitions: 1 would sit idle"), finding.title());
        f.tasksWanted = 20;
        assertEquals(Severity.OK, f.run(CHECK).severity());
    }

    @Test
    void withoutRecordsOrAssignmentOrTasksItCannotTell() {
        Fixture idleSource = new Fixture();
        idleSource.appendPerPartition = Fixture.uniform(20, 0);
        assertEquals(Severity.INFO, idleSource.run(CHECK).severity(), "no records: starved cannot be told from idle");
        assertEquals(List.of(), idleSource.run(CHECK).evidence().get("starvedTasks"));
        Fixture unknown = new Fixture();
        unknown.window = List.of(unknown.sample(0, null), unknown.sample(10_000, null));
        assertEquals(Severity.INFO, unknown.run(CHECK).severity());
        Fixture none = new Fixture();
        none.assignment = Map.of();
        assertEquals("the connector has no tasks", none.run(CHECK).title());
    }

    @Test
    void symbolKeysRefuseFourToFiveTasksThoughSevenKeysAreMoreThanFive() {
        Fixture f = Fixture.recordsOnlyIn(TaskPlacementTest.SYMBOLS, 4, 5);
        Finding finding = f.run(CHECK);
        assertEquals(Severity.CRITICAL, finding.severity(), finding.title());
        assertEquals(
                "4 → 5 tasks adds no working task: records sit in partitions [0, 4, 5, 7, 10, 17, 18] only, and under range "
                        + "assignment 4 tasks have 4 receiving records, 5 would have 4",
                finding.title());
        assertEquals(TaskPlacementTest.SYMBOLS, finding.evidence().get("partitionsWithRecords"));
        assertEquals(4, finding.evidence().get("busyTasksNow"));
        assertEquals(4, finding.evidence().get("busyTasksWanted"));
        assertEquals(List.of(0, 1, 2, 4), finding.evidence().get("busyTaskIdsWanted"));
        assertEquals("range assignment", finding.evidence().get("placement"));
        assertTrue(finding.advice().contains("see key-cardinality"), finding.advice());
        f.tasksWanted = 6;
        assertEquals(Severity.CRITICAL, f.run(CHECK).severity(), "6 tasks still keep 4 busy");
        assertTrue(
                new KeyCardinalityCheck()
                                .check(f.snapshot(), f.samples())
                                .severity()
                                .compareTo(Severity.CRITICAL)
                        < 0,
                "7 keys are more than 6 tasks: only the placement shows the scale is useless");
    }

    @Test
    void aStatusReadWhileConnectRebalancesStillRefusesByTasksMax() {
        Fixture f = Fixture.recordsOnlyIn(TaskPlacementTest.SYMBOLS, 4, 5);
        f.assignment = Map.of();
        Finding finding = f.run(CHECK);
        assertEquals(Severity.CRITICAL, finding.severity(), finding.title());
        assertTrue(finding.title().startsWith("4 → 5 tasks adds no working task"), finding.title());
        // a status that lists only some of the tasks (seen on the real stack: 2 of 5 while the group rebalanced)
        f.assignment = Map.of(0, List.of(0, 1, 2, 3, 4), 1, List.of(5, 6, 7, 8, 9));
        Finding partial = f.run(CHECK);
        assertEquals(Severity.CRITICAL, partial.severity(), partial.title());
        assertTrue(partial.title().startsWith("4 → 5 tasks adds no working task"), partial.title());
    }

    @Test
    void symbolKeysOnSevenTasksKeepSixBusy() {
        Fixture f = Fixture.recordsOnlyIn(TaskPlacementTest.SYMBOLS, 4, 7);
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity(), finding.title());
        assertEquals(
                "only 6 of 7 tasks would receive records (partitions [0, 4, 5, 7, 10, 17, 18] hold them; range assignment)",
                finding.title());
        assertEquals(List.of(0, 1, 2, 3, 5, 6), finding.evidence().get("busyTaskIdsWanted"));
    }

    @Test
    void sideKeysRefuseThreeToFourTasks() {
        Fixture f = Fixture.recordsOnlyIn(TaskPlacementTest.SIDES, 3, 4);
        Finding finding = f.run(CHECK);
        assertEquals(Severity.CRITICAL, finding.severity(), finding.title());
        assertEquals(2, finding.evidence().get("busyTasksNow"));
        assertEquals(List.of(0, 2), finding.evidence().get("busyTaskIdsWanted"));
    }

    @Test
    void cooperativeStickyIsBoundedByTheLiveAssignment() {
        Fixture f = Fixture.recordsOnlyIn(TaskPlacementTest.SYMBOLS, 4, 5);
        f.groupAssignor = "cooperative-sticky";
        Finding finding = f.run(CHECK);
        // 4 tasks hold the 7 partitions with records; a fifth could take one of them
        assertEquals(Severity.OK, finding.severity(), finding.title());
        assertEquals(5, finding.evidence().get("busyTasksWantedAtMost"));
        assertTrue(
                ((String) finding.evidence().get("placement")).contains("cooperative-sticky keeps earlier placements"));
        f.tasksWanted = 8;
        Finding eight = f.run(CHECK);
        assertEquals(Severity.WARNING, eight.severity(), eight.title());
        assertTrue(eight.title().startsWith("at most 7 of 8 tasks would receive records"), eight.title());

        f = Fixture.recordsOnlyIn(TaskPlacementTest.SYMBOLS, 18, 19);
        f.groupAssignor = "cooperative-sticky";
        Finding full = f.run(CHECK);
        assertEquals(
                Severity.CRITICAL,
                full.severity(),
                "7 tasks already hold one partition with records each: " + full.title());
        assertTrue(full.title().contains("at most one task per partition with records"), full.title());
    }

    @Test
    void aSinkOfSeveralTopicsIsNotPlaced() {
        Fixture f = Fixture.recordsOnlyIn(TaskPlacementTest.SYMBOLS, 4, 5);
        f.topics = List.of("t", "u");
        Finding finding = f.run(CHECK);
        assertEquals(
                Severity.OK,
                finding.severity(),
                "the sample covers t only; u may feed the new task: " + finding.title());
        assertTrue(!finding.evidence().containsKey("partitionsWithRecords"));
    }

    @Test
    void aSinkOfSeveralTopicsSampledWholeIsPlacedAcrossTopics() {
        Fixture f = PartitionCountCheckTest.threeTopics("range", 4);
        // range gives partition 0 of every topic to task 0: records in a-0 and c-0 only keep one task busy at any count
        f.keysOfTopics = List.of(onlyIn("a", 3, 0), onlyIn("b", 8), onlyIn("c", 12, 0));
        Finding finding = f.run(CHECK);
        assertEquals(List.of("a-0", "c-0"), finding.evidence().get("partitionsWithRecords"));
        assertEquals(1, finding.evidence().get("busyTasksWanted"));
        assertEquals(List.of(0), finding.evidence().get("busyTaskIdsWanted"));
        f.groupAssignor = "roundrobin";
        Finding dealt = f.run(CHECK);
        assertEquals(2, dealt.evidence().get("busyTasksWanted"), "round-robin deals a-0 and c-0 to different tasks");
    }

    private static KeySample onlyIn(String topic, int partitions, Integer... withRecords) {
        return new KeySample(
                topic,
                1_000,
                0,
                new DistinctCounter.Distinct(500, true, 500, 500),
                Map.of(),
                1_000,
                null,
                partitions,
                withRecords.length,
                100,
                "end",
                List.of(withRecords));
    }

    @Test
    void underRangeATaskBeyondTheLargestTopicsPartitionsIsIdleThoughMorePartitionsExistInAll() {
        Finding thirteen = PartitionCountCheckTest.threeTopics("range", 13).run(CHECK);
        assertEquals(Severity.WARNING, thirteen.severity(), thirteen.title());
        assertTrue(
                thirteen.title()
                        .contains(
                                "13 tasks for 23 partitions: 1 would sit idle (range assignment assigns each of the 3"
                                        + " topics on its own, so of their 23 partitions at most 12 (those of the largest, c) go to different tasks)"),
                thirteen.title());
        assertEquals(12, thirteen.evidence().get("tasksWithPartitionsAtMost"));
        assertEquals("range", thirteen.evidence().get("assignor"));
        assertTrue(thirteen.advice().contains("set tasks.max to at most 12"), thirteen.advice());
        Finding spread =
                PartitionCountCheckTest.threeTopics("cooperative-sticky", 13).run(CHECK);
        assertFalse(spread.title().contains("would sit idle"), spread.title());
        assertEquals(23, spread.evidence().get("tasksWithPartitionsAtMost"));
    }
}
