package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotDerivationTest {

    private static final List<PipelineSample.TaskState> TWO_RUNNING =
            List.of(new PipelineSample.TaskState(0, "RUNNING", "w1"), new PipelineSample.TaskState(1, "RUNNING", "w2"));
    private static final Map<Integer, Integer> ASSIGNMENT = Map.of(0, 0, 1, 0, 2, 1);

    /** Three partitions; the sink group assigns 0,1 to task 0 and 2 to task 1. */
    private static PipelineSample sample(long atMillis, long[] end, long[] committed, long indexTotal) {
        return new Builder(atMillis)
                .offsets(end, committed)
                .indexTotal(indexTotal)
                .build();
    }

    @Test
    void aTaskOnAWorkerThatDoesNotAnswerIsWorkerUnreachableWhateverConnectReports() {
        long[] offsets = {100, 100, 100};
        PipelineSample before = new Builder(0).offsets(offsets, offsets).build();
        PipelineSample lost = new Builder(12_500)
                .offsets(offsets, offsets)
                .tasks(List.of(
                        new PipelineSample.TaskState(0, "RUNNING", "w1"),
                        new PipelineSample.TaskState(1, "RUNNING", "w2"),
                        new PipelineSample.TaskState(2, "UNASSIGNED", "w2")))
                .unreachableWorkers(Map.of("w2", 2_000L))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(before, lost), 30);
        assertEquals(
                List.of("RUNNING", PipelineSnapshot.Task.WORKER_UNREACHABLE, PipelineSnapshot.Task.WORKER_UNREACHABLE),
                s.tasks().stream().map(PipelineSnapshot.Task::state).toList());
        assertEquals("w2", s.tasks().get(1).workerId(), "the worker Connect names stays in the view");
        assertEquals(Map.of("w2", 10L), s.unreachableWorkers(), "seconds since the scaler first found it silent");
        assertFalse(s.stable());
        assertFalse(s.degraded(), "every system of the pipeline answered the scaler");
        assertEquals(
                List.of("worker w2 has not answered for 10 s: tasks [1, 2] on it are WORKER_UNREACHABLE"
                        + " (Connect reports task 1 RUNNING, task 2 UNASSIGNED) until Connect reassigns them"),
                s.reasons());

        PipelineSnapshot back = SnapshotDerivation.derive(
                List.of(before, new Builder(14_500).offsets(offsets, offsets).build()), 30);
        assertTrue(back.stable(), "tasks back RUNNING on answering workers: " + back.reasons());
        assertEquals(Map.of(), back.unreachableWorkers());
    }

    @Test
    void aStalledPartitionsAgeReachesBeyondTheWindowAndEachPartitionHasItsVerdict() {
        // 10 records/s into each partition; partition 0's commits stop at 8 s (offset 80), 1 and 2 keep up, and from
        // 30 s partition 2 has no member
        SampleWindow window = new SampleWindow(10_000);
        for (long at = 0; at <= 40_000; at += 2_000) {
            long end = at / 100;
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, Math.min(end, 80), 1, end, 2, end))
                    .assignment(at >= 30_000 ? Map.of(0, 0, 1, 0) : ASSIGNMENT)
                    .build());
        }
        PipelineSnapshot.Lag lag = window.snapshot().orElseThrow().lag();
        assertEquals(
                List.of(LagVerdict.STALLED, LagVerdict.CAUGHT_UP, LagVerdict.STOPPED),
                lag.partitions().stream()
                        .map(PipelineSnapshot.PartitionLag::verdict)
                        .toList());
        // offset 80 was appended when the end offset reached 81, at 8.1 s: 31.9 s ago, though the window is 10 s
        assertEquals(31.9, lag.partitions().get(0).seconds(), 1e-9);
        assertEquals(31.9, lag.seconds(), 1e-9);
        assertEquals(false, lag.lowerBound());
        assertEquals(LagVerdict.STOPPED, lag.verdict(), "the worst partition's");
        assertEquals(21, window.history().size(), "a point per sample");
        assertEquals(31.9, window.history().get(20).lagSeconds(), 1e-9);
    }

    @Test
    void aLagOlderThanTheHistoryIsALowerBoundAndAFallingLagIsCatchingUp() {
        long[] end = {1_000, 1_000, 1_000};
        PipelineSample first = new Builder(0)
                .end(end)
                .committed(Map.of(0, 0L, 1, 1_000L, 2, 1_000L))
                .build();
        PipelineSample second = new Builder(2_000)
                .end(new long[] {1_010, 1_010, 1_010})
                .committed(Map.of(0, 250L, 1, 1_010L, 2, 1_010L))
                .build();
        PipelineSample third = new Builder(4_000)
                .end(new long[] {1_020, 1_020, 1_020})
                .committed(Map.of(0, 500L, 1, 1_020L, 2, 1_020L))
                .build();
        PipelineSnapshot.Lag lag =
                SnapshotDerivation.derive(List.of(first, second, third), 30).lag();
        assertEquals(4.0, lag.seconds(), 1e-9);
        assertTrue(lag.lowerBound(), "offset 500 was appended before the first sample");
        assertEquals(LagVerdict.CATCHING_UP, lag.verdict(), "520 at the last commit, 760 at the one before");
        assertNull(
                SnapshotDerivation.derive(List.of(first, second), 30)
                        .lag()
                        .partitions()
                        .get(0)
                        .verdict(),
                "one commit seen: which way the lag goes cannot be told yet");
    }

    @Test
    void aSinkThatDeadLettersIsNotStableAndSaysWhyWhateverItsLag() {
        long[] offsets = {100, 100, 100};
        long[] later = {200, 200, 200};
        PipelineSample before =
                new Builder(0).offsets(offsets, offsets).deadLetters(40L, null).build();
        PipelineSample after = new Builder(10_000)
                .offsets(later, later)
                .deadLetters(65L, "DataException: not a JSON object")
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(before, after), 30);
        assertEquals(
                new PipelineSnapshot.DeadLetters("t-dlq", 2.5, 65L, "DataException: not a JSON object"),
                s.deadLetters());
        assertFalse(s.stable());
        assertEquals(
                List.of(
                        "records dead-lettered to t-dlq within the window (2.50/s); the latest because: DataException: not a JSON object"),
                s.reasons());
        assertEquals(0L, s.lag().total(), "caught up, and still records are lost to the index");

        PipelineSnapshot quiet = SnapshotDerivation.derive(
                List.of(
                        after,
                        new Builder(20_000)
                                .offsets(later, later)
                                .deadLetters(65L, "DataException: not a JSON object")
                                .build()),
                30);
        assertEquals(0.0, quiet.deadLetters().appendPerSecond());
        assertTrue(quiet.stable(), quiet.reasons().toString());
        assertNull(
                SnapshotDerivation.derive(
                                List.of(new Builder(0).offsets(offsets, offsets).build()), 30)
                        .deadLetters(),
                "a sink without a dead-letter topic");
    }

    @Test
    void aWindowDerivesItsSnapshotOncePerNewSample() {
        SampleWindow window = new SampleWindow(30_000);
        window.add(sample(0, new long[] {100}, new long[] {100}, 100));
        PipelineSnapshot first = window.snapshot().orElseThrow();
        assertSame(first, window.snapshot().orElseThrow(), "read again before the next sample: the same snapshot");
        window.add(sample(2_000, new long[] {300}, new long[] {200}, 200));
        PipelineSnapshot second = window.snapshot().orElseThrow();
        assertEquals(100.0, second.rates().appendPerSecond(), 1e-9, "a new sample: derived afresh");
    }

    @Test
    void ratesComeFromCounterDeltasOverTheWindowAndTheSinksFromItsTasksCommits() {
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(
                        sample(0, new long[] {100, 100, 100}, new long[] {90, 90, 90}, 300),
                        sample(1_000, new long[] {110, 120, 130}, new long[] {100, 100, 100}, 320),
                        sample(11_000, new long[] {210, 320, 430}, new long[] {150, 300, 400}, 870)),
                30);
        assertEquals(660.0 / 11, s.rates().appendPerSecond(), 1e-9);
        assertEquals(550.0 / 10, s.rates().sinkPerSecond(), 1e-9, "between the tasks' commits at 1 s and 11 s");
        assertEquals(570.0 / 11, s.rates().indexPerSecond(), 1e-9);
        assertEquals(
                Map.of(0, 110.0 / 11, 1, 220.0 / 11, 2, 330.0 / 11), s.rates().appendPerPartition());
        assertEquals(25.0, s.tasks().get(0).recordsPerSecond(), 1e-9, "task 0 owns partitions 0 and 1: (50+200)/10");
        assertEquals(30.0, s.tasks().get(1).recordsPerSecond(), 1e-9, "task 1 owns partition 2: 300/10");
        assertEquals(10.0, s.tasks().get(0).commitIntervalSeconds(), 1e-9);
        assertEquals(0.0, s.tasks().get(0).secondsSinceCommit(), 1e-9);
        assertEquals(List.of(0, 1), s.tasks().get(0).partitions());
        assertEquals(List.of(2), s.tasks().get(1).partitions());
        assertEquals(3, s.partitions());
    }

    @Test
    void aPartitionNothingIsAppendedToHasAnAppendRateOfZero() {
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(
                        sample(0, new long[] {100, 100, 100}, new long[] {100, 100, 100}, 0),
                        sample(10_000, new long[] {100, 300, 100}, new long[] {100, 300, 100}, 0)),
                30);
        assertEquals(Map.of(0, 0.0, 1, 20.0, 2, 0.0), s.rates().appendPerPartition());
        assertNull(
                SnapshotDerivation.derive(List.of(sample(0, new long[] {1, 1, 1}, new long[] {1, 1, 1}, 0)), 30)
                        .rates()
                        .appendPerPartition(),
                "one sample has no rate");
    }

    @Test
    void latencyIsLagOverSinkRate() {
        // lag 50 on partition 0, sink 55/s
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(
                        sample(0, new long[] {100, 100, 100}, new long[] {90, 90, 90}, 0),
                        sample(1_000, new long[] {100, 100, 100}, new long[] {100, 100, 100}, 0),
                        sample(11_000, new long[] {200, 300, 400}, new long[] {150, 300, 400}, 0)),
                30);
        assertEquals(50L, s.lag().total());
        assertEquals(Map.of(0, 50L, 1, 0L, 2, 0L), s.lag().perPartition());
        assertEquals(50L, s.lag().unconsumed(), "the tasks committed at this very sample");
        assertEquals(50 / 55.0, s.latencySeconds(), 1e-9);
        assertEquals(0.05, SnapshotDerivation.latency(2L, 40.0), 1e-12, "lag 2 at 40/s is 50 ms");
        assertEquals(1.0, SnapshotDerivation.latency(200L, 200.0), 1e-12, "lag 200 at 200/s is 1 s");
        assertEquals(0.0, SnapshotDerivation.latency(0L, 0.0));
        assertNull(SnapshotDerivation.latency(10L, 0.0), "lag with nothing consumed has no finite latency");
        assertNull(SnapshotDerivation.latency(null, 5.0));
    }

    @Test
    void aHealthyPipelineIsStableWithNoReasons() {
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(
                        sample(0, new long[] {100, 100, 100}, new long[] {90, 95, 100}, 0),
                        sample(2_000, new long[] {110, 110, 110}, new long[] {100, 100, 110}, 0),
                        sample(4_000, new long[] {120, 120, 120}, new long[] {115, 120, 120}, 0)),
                30);
        assertTrue(s.stable(), () -> "reasons: " + s.reasons());
        assertEquals(List.of(), s.reasons());
        assertFalse(s.degraded());
    }

    @Test
    void oneSampleIsNotEnoughToBeStable() {
        PipelineSnapshot s =
                SnapshotDerivation.derive(List.of(sample(0, new long[] {1, 1, 1}, new long[] {1, 1, 1}, 3)), 30);
        assertFalse(s.stable());
        assertTrue(s.reasons().get(0).startsWith("warming up"), s.reasons().toString());
        assertNull(s.rates().sinkPerSecond());
        assertNull(s.tasks().get(0).recordsPerSecond());
    }

    @Test
    void aTaskThatIsNotRunningMakesItUnstable() {
        PipelineSample a = sample(0, new long[] {1, 1, 1}, new long[] {1, 1, 1}, 0);
        PipelineSample b = new Builder(1000)
                .offsets(new long[] {1, 1, 1}, new long[] {1, 1, 1})
                .tasks(List.of(
                        new PipelineSample.TaskState(0, "RUNNING", "w1"),
                        new PipelineSample.TaskState(1, "FAILED", "w2")))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(a, b), 30);
        assertFalse(s.stable());
        assertEquals(List.of("task 1 is FAILED"), s.reasons());
    }

    @Test
    void aChangedAssignmentWithinTheWindowIsARebalance() {
        PipelineSample a = sample(0, new long[] {1, 1, 1}, new long[] {1, 1, 1}, 0);
        PipelineSample b = new Builder(1000)
                .offsets(new long[] {1, 1, 1}, new long[] {1, 1, 1})
                .assignment(Map.of(0, 0, 1, 1, 2, 1))
                .build();
        PipelineSample c = new Builder(2000)
                .offsets(new long[] {1, 1, 1}, new long[] {1, 1, 1})
                .assignment(Map.of(0, 0, 1, 1, 2, 1))
                .groupState("PREPARING_REBALANCE")
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(a, b, c), 30);
        assertEquals(
                List.of(
                        "the sink group rebalanced within the window (its partition assignment changed)",
                        "the sink group is PREPARING_REBALANCE"),
                s.reasons());
    }

    @Test
    void aTaskThatCommitsNothingForTheWindowPlusOneCommitIntervalStallsItsPartitions() {
        // 10 records/s into each partition; task 0 (partitions 0, 1) commits every 2 s; task 1 (partition 2) stops
        // committing at 20 s; the window is 10 s, so with the group's 2 s interval task 1 stalls once its lag is over
        // 12 s
        List<PipelineSample> samples = new ArrayList<>();
        for (long at = 0; at <= 40_000; at += 2_000) {
            long end = at / 100;
            samples.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, end, 1, end, 2, Math.min(end, 200)))
                    .build());
        }
        SampleWindow window = new SampleWindow(10_000);
        samples.subList(0, 17).forEach(window::add);
        PipelineSnapshot at32 = window.snapshot().orElseThrow();
        assertTrue(at32.stable(), "its oldest record waited 11.9 s: " + at32.reasons());
        samples.subList(17, samples.size()).forEach(window::add);
        PipelineSnapshot s = window.snapshot().orElseThrow();
        assertEquals(
                List.of(
                        "partitions [2] have lag 19.9 s old and their tasks committed nothing for longer than the window"
                                + " plus one commit interval (12 s): paused or stuck"),
                s.reasons().stream()
                        .map(r -> r.replace("20 s old", "19.9 s old"))
                        .toList());
        assertEquals(LagVerdict.STALLED, s.lag().verdict());
        assertEquals(0.0, s.tasks().get(1).recordsPerSecond(), 1e-9, "a task that commits nothing consumes nothing");
        assertEquals(20.0, s.tasks().get(1).secondsSinceCommit(), 1e-9);
    }

    @Test
    void aTaskStuckAfterItsFirstCommitIsWarmingUpForAMinuteAndTheWindowThenStalled() {
        // a closed index: one task committed its 5 records once at 2 s, 20 more arrived at 4 s and it commits nothing
        // after; a sample a second, a 6 s window. Its interval is unknown (Connect's default is a minute), so it may
        // not read stalled before 2 + 6 + 60 s, and must read stalled, saying it committed nothing, after (its records
        // are aged from the sample before they were seen, 3 s)
        SampleWindow window = new SampleWindow(6_000);
        PipelineSnapshot at30 = null;
        for (long at = 0; at <= 75_000; at += 1_000) {
            window.add(new Builder(at)
                    .end(new long[] {at < 4_000 ? 5 : 25})
                    .committed(at < 2_000 ? Map.of() : Map.of(0, 5L))
                    .tasks(List.of(new PipelineSample.TaskState(0, "RUNNING", "w1")))
                    .assignment(Map.of(0, 0))
                    .build());
            if (at == 30_000) {
                at30 = window.snapshot().orElseThrow();
            }
        }
        assertNotEquals(LagVerdict.STALLED, at30.lag().verdict(), at30.reasons().toString());
        assertTrue(
                at30.reasons().get(0).startsWith("warming up: a task with lag"),
                at30.reasons().toString());
        PipelineSnapshot s = window.snapshot().orElseThrow();
        assertEquals(LagVerdict.STALLED, s.lag().verdict(), s.reasons().toString());
        assertEquals(
                List.of("partitions [0] have lag 72 s old and their tasks committed nothing for longer than the window"
                        + " plus one commit interval (66 s): paused or stuck"),
                s.reasons());
    }

    @Test
    void withCommitsOnceAMinuteAHealthySinkKeepsItsRateAndIsNeitherStalledNorLagging() {
        // 100 records/s into each of 3 partitions for 5 minutes, each task commits everything it has every 60 s (task 0
        // at 7 s past each minute, task 1 at 37 s), and the scaler samples every 2 s over a 30 s window
        SampleWindow window = new SampleWindow(30_000);
        long committed0 = 0;
        long committed1 = 0;
        int stable = 0;
        int samples = 0;
        for (long at = 0; at <= 300_000; at += 2_000) {
            long end = at / 10;
            if (at % 60_000 == 8_000) {
                committed0 = end - 100;
            }
            if (at % 60_000 == 38_000) {
                committed1 = end - 100;
            }
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, committed0, 1, committed0, 2, committed1))
                    .build());
            PipelineSnapshot s = window.snapshot().orElseThrow();
            if (at >= 160_000) {
                samples++;
                stable += s.stable() ? 1 : 0;
                assertEquals(300.0, s.rates().sinkPerSecond(), 1e-9, "at " + at + ": " + s.reasons());
                assertTrue(
                        s.lag().unconsumed() <= 300,
                        "at " + at + ": what the tasks consumed since their last commit is not waiting: "
                                + s.lag().unconsumed() + " of " + s.lag().total());
                assertTrue(
                        s.lag().unconsumedSeconds() <= 1.0,
                        "at " + at + ": " + s.lag().unconsumedSeconds());
                assertTrue(
                        s.lag().verdict() != LagVerdict.STALLED && s.lag().verdict() != LagVerdict.GROWING,
                        "at " + at + ": " + s.lag().verdict());
                assertEquals(60.0, s.commitIntervalSeconds(), 1e-9);
            }
        }
        assertEquals(samples, stable, "every sample once the tasks committed twice");
    }

    @Test
    void aPausedTaskStallsItsPartitionsWithLagAtOnceNotAMinuteAndAHalfLater() {
        // seen on the stack at Connect's default 60 s commits: paused just after a commit, its partitions read growing
        // for the window plus the interval (91 s) before they read stalled; Connect said PAUSED all along
        SampleWindow window = new SampleWindow(30_000);
        long committed = 0;
        PipelineSnapshot before = null;
        PipelineSnapshot s = null;
        for (long at = 0; at <= 200_000; at += 2_000) {
            long end = at / 10;
            if (at % 60_000 == 2_000 && at <= 122_000) {
                committed = end;
            }
            String state = at >= 124_000 ? "PAUSED" : "RUNNING";
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, committed, 1, committed, 2, committed))
                    .tasks(List.of(
                            new PipelineSample.TaskState(0, state, "w1"), new PipelineSample.TaskState(1, state, "w2")))
                    .build());
            if (at == 122_000) {
                before = window.snapshot().orElseThrow();
            }
            if (at == 124_000) {
                s = window.snapshot().orElseThrow();
            }
        }
        assertTrue(before.stable(), before.reasons().toString());
        assertEquals(LagVerdict.CAUGHT_UP, before.lag().verdict());
        assertEquals(LagVerdict.STALLED, s.lag().verdict(), s.reasons().toString());
        assertEquals(
                List.of(
                        "task 0 is PAUSED",
                        "task 1 is PAUSED",
                        "partitions [0, 1, 2] have lag 2 s old and their tasks are PAUSED: nothing consumes them until"
                                + " the connector is resumed"),
                s.reasons());
        s.lag().partitions().forEach(p -> assertEquals(LagVerdict.STALLED, p.verdict(), p.toString()));
    }

    @Test
    void aTaskThatIsPausedWithoutLagIsNotStalled() {
        PipelineSample a = sample(0, new long[] {5, 5, 5}, new long[] {5, 5, 5}, 0);
        PipelineSample b = new Builder(2000)
                .offsets(new long[] {5, 5, 5}, new long[] {5, 5, 5})
                .tasks(List.of(
                        new PipelineSample.TaskState(0, "PAUSED", "w1"),
                        new PipelineSample.TaskState(1, "RUNNING", "w2")))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(a, b), 30);
        assertEquals(LagVerdict.CAUGHT_UP, s.lag().verdict());
        assertEquals(List.of("task 0 is PAUSED"), s.reasons());
    }

    @Test
    void aBusyTaskThatConsumesMoreThanItsBacklogElsewhereWithoutTakingFromAPartitionStallsIt() {
        // one task, 3 partitions, 10 records/s into each; it consumes 30/s from partitions 0 and 1 alone (never caught
        // up: they start 1,000 behind) and never from 2, which has 100 of lag at 0 s
        SampleWindow window = new SampleWindow(10_000);
        Map<Integer, Integer> oneTask = Map.of(0, 0, 1, 0, 2, 0);
        List<PipelineSample.TaskState> one = List.of(new PipelineSample.TaskState(0, "RUNNING", "w1"));
        PipelineSnapshot at60 = null;
        for (long at = 0; at <= 120_000; at += 2_000) {
            long end = 1_000 + at / 100;
            long taken = at * 15 / 1_000;
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, taken, 1, taken, 2, 900L))
                    .tasks(one)
                    .assignment(oneTask)
                    .build());
            if (at == 60_000) {
                at60 = window.snapshot().orElseThrow();
            }
        }
        assertTrue(
                at60.stable(),
                "1,800 consumed elsewhere, within the 2,100 backlog and a commit's worth: " + at60.reasons());
        PipelineSnapshot s = window.snapshot().orElseThrow();
        assertEquals(
                List.of(
                        "partitions [2] did not move while their tasks consumed 3600 records from their others, more than"
                                + " their whole backlog when these last moved (2160 with one commit interval's worth)"),
                s.reasons());
        assertEquals(LagVerdict.STALLED, s.lag().partitions().get(2).verdict());
    }

    @Test
    void aPartitionAnotherTaskTookIsJudgedOnItsNewTasksCommitsAlone() {
        // task 0 held every partition and last moved partition 2 at 10 s; from 40 s task 1 holds it and has not
        // committed
        // yet: with the group's 2 s interval and a 10 s window, it is not stalled before 52 s of its own
        SampleWindow window = new SampleWindow(10_000);
        for (long at = 0; at <= 50_000; at += 2_000) {
            long end = at / 100;
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, end, 1, end, 2, Math.min(end, 100)))
                    .assignment(at < 40_000 ? Map.of(0, 0, 1, 0, 2, 0) : ASSIGNMENT)
                    .build());
        }
        PipelineSnapshot s = window.snapshot().orElseThrow();
        assertEquals(1, s.reasons().size(), s.reasons().toString());
        assertTrue(
                s.reasons().get(0).startsWith("warming up: a task with lag has not committed twice"),
                s.reasons().get(0));
        assertNull(s.lag().partitions().get(2).verdict(), "its new task was watched for 10 s only");
        assertNull(s.tasks().get(1).secondsSinceCommit(), "task 1 has not committed; task 0's steps are not its own");
    }

    @Test
    void aTaskGivenPartitionsByARebalanceIsNotStalledBeforeItsFirstLongPutEnds() {
        // seen on the stack after a scale-up from 1 to 6 per-record tasks: a new task's first put of a backlogged
        // poll (500 records at ~15/s) took longer than the window plus the 2 s another new task committed at, and its
        // partitions read stalled. 10 records/s into each partition; task 0 holds them all and keeps up until 40 s,
        // then holds 0 and 1 and keeps committing every 2 s; task 1 gets partition 2 and has not committed since
        SampleWindow window = new SampleWindow(30_000);
        PipelineSnapshot at74 = null;
        PipelineSnapshot at120 = null;
        PipelineSnapshot at134 = null;
        for (long at = 0; at <= 134_000; at += 2_000) {
            long end = at / 100;
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, end, 1, end, 2, Math.min(end, 400)))
                    .assignment(at < 40_000 ? Map.of(0, 0, 1, 0, 2, 0) : ASSIGNMENT)
                    .build());
            if (at == 74_000) {
                at74 = window.snapshot().orElseThrow();
            }
            if (at == 120_000) {
                at120 = window.snapshot().orElseThrow();
            }
            if (at == 134_000) {
                at134 = window.snapshot().orElseThrow();
            }
        }
        for (PipelineSnapshot s : List.of(at74, at120)) {
            assertTrue(
                    s.lag().partitions().get(2).verdict() != LagVerdict.STALLED,
                    "a task that has not committed since it got its partitions waits for its first put: "
                            + s.lag().partitions().get(2) + " " + s.reasons());
        }
        // a new task that never commits is still caught, once the window and Connect's default interval have passed
        assertEquals(
                LagVerdict.STALLED,
                at134.lag().partitions().get(2).verdict(),
                at134.reasons().toString());
    }

    @Test
    void aTaskThatKeepsItsPartitionsThroughARebalanceIsJudgedAfreshAfterItsRestart() {
        // seen on the stack after the same scale-up: task 0 kept partitions 0-3, but Connect restarted it, and its
        // first
        // put after the restart took longer than the window plus the 34 s it had committed at before. 10 records/s
        // into each partition; until 40 s task 0 holds all three and commits every 10 s, 900 records behind; then it
        // holds 0 and 1 and next commits at 86 s; task 1 takes 2 and commits every 2 s
        SampleWindow window = new SampleWindow(30_000);
        PipelineSnapshot at84 = null;
        long taken = 0;
        for (long at = 0; at <= 84_000; at += 2_000) {
            long end = 900 + at / 100;
            if (at < 40_000 ? at % 10_000 == 0 : at == 86_000) {
                taken = at / 100;
            }
            long p2 = at < 40_000 ? taken : Math.max(taken, end - 20);
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, taken, 1, taken, 2, p2))
                    .assignment(at < 40_000 ? Map.of(0, 0, 1, 0, 2, 0) : ASSIGNMENT)
                    .build());
            if (at == 84_000) {
                at84 = window.snapshot().orElseThrow();
            }
        }
        assertTrue(
                at84.lag().partitions().get(0).verdict() != LagVerdict.STALLED,
                "a restarted task waits for its first put: "
                        + at84.lag().partitions().get(0) + " " + at84.reasons());
        assertTrue(
                at84.reasons().get(0).startsWith("warming up"), at84.reasons().toString());
    }

    /**
     * One task, three partitions, a commit every 10 s; 20 records/s into each until 60 s. The task drains them in
     * turns: partition 2 last moves at 50 s, with 700 records left; partitions 0 and 1 are drained by 90 s. {@code
     * trickleFrom}: 5 records/s into each from then on.
     */
    private static PipelineSnapshot drainedInTurns(long until, long trickleFrom) {
        Map<Long, long[]> commits = Map.of(
                10_000L, new long[] {250, 0, 0},
                20_000L, new long[] {250, 250, 0},
                30_000L, new long[] {500, 250, 0},
                40_000L, new long[] {500, 500, 0},
                50_000L, new long[] {500, 500, 300},
                60_000L, new long[] {800, 500, 300},
                70_000L, new long[] {800, 800, 300},
                80_000L, new long[] {1200, 800, 300},
                90_000L, new long[] {1200, 1200, 300});
        SampleWindow window = new SampleWindow(30_000);
        long[] taken = {0, 0, 0};
        for (long at = 0; at <= until; at += 2_000) {
            long end = Math.min(at, 60_000) / 50 + Math.max(0, at - trickleFrom) / 200;
            taken = commits.getOrDefault(at, taken);
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, taken[0], 1, taken[1], 2, taken[2]))
                    .tasks(List.of(new PipelineSample.TaskState(0, "RUNNING", "w1")))
                    .assignment(Map.of(0, 0, 1, 0, 2, 0))
                    .build());
        }
        return window.snapshot().orElseThrow();
    }

    @Test
    void aPartitionLeftLastWhileItsTaskDrainsABacklogIsNotStalledWhenRecordsArriveAfterTheLastCommit() {
        // seen on the stack at the end of an overload: the load had stopped, the task had just drained partitions 2
        // and 3's neighbours and not yet them, and new records arrived after its last commit; the neighbours, caught
        // up at that commit and with lag again, read as kept up with their traffic, and 2 and 3 as left behind
        PipelineSnapshot s = drainedInTurns(98_000, 96_000);
        assertTrue(
                s.lag().partitions().get(2).verdict() != LagVerdict.STALLED,
                "nothing arrived in its neighbours while the task drained them: " + s.reasons());
        assertTrue(s.stable(), s.reasons().toString());
    }

    @Test
    void aPartitionLeftWhileItsTaskKeepsUpWithItsNeighboursTrafficIsStalled() {
        // 10 records/s into each; the task commits every 2 s all that partitions 0 and 1 held, and never takes from 2
        SampleWindow window = new SampleWindow(30_000);
        for (long at = 0; at <= 60_000; at += 2_000) {
            long end = 100 + at / 100;
            long covered = Math.max(100, end - 20);
            window.add(new Builder(at)
                    .end(new long[] {end, end, end})
                    .committed(Map.of(0, covered, 1, covered, 2, 100L))
                    .tasks(List.of(new PipelineSample.TaskState(0, "RUNNING", "w1")))
                    .assignment(Map.of(0, 0, 1, 0, 2, 0))
                    .build());
        }
        PipelineSnapshot s = window.snapshot().orElseThrow();
        assertEquals(
                LagVerdict.STALLED,
                s.lag().partitions().get(2).verdict(),
                s.reasons().toString());
        assertEquals(
                List.of(
                        "partitions [2] have lag 60 s old while their tasks keep other partitions caught up (more than the"
                                + " window plus one commit interval, 32 s)"),
                s.reasons());
    }

    @Test
    void aSaturatedTaskThatDrainsAFewPartitionsAtATimeIsGrowingNotStalled() {
        // one task, 20 partitions, 10 records/s into each (200/s), consuming 70/s: each commit (every 7 s, a poll of
        // ~500 records) moves only the partition it drained, in turn
        SampleWindow window = new SampleWindow(30_000);
        int partitions = 20;
        long[] committed = new long[partitions];
        Map<Integer, Integer> oneTask = new java.util.TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            oneTask.put(p, 0);
        }
        int next = 0;
        for (long at = 0; at <= 600_000; at += 2_000) {
            long end = at / 100;
            if (at % 14_000 == 0 && at > 0) {
                // two polls of ~490 records each since the last commit: one partition's backlog each
                for (int k = 0; k < 2; k++) {
                    committed[next] = Math.min(end, committed[next] + 490);
                    next = (next + 1) % partitions;
                }
            }
            Map<Integer, Long> c = new java.util.TreeMap<>();
            long[] e = new long[partitions];
            for (int p = 0; p < partitions; p++) {
                c.put(p, committed[p]);
                e[p] = end;
            }
            window.add(new Builder(at)
                    .end(e)
                    .committed(c)
                    .tasks(List.of(new PipelineSample.TaskState(0, "RUNNING", "w1")))
                    .assignment(oneTask)
                    .build());
        }
        PipelineSnapshot s = window.snapshot().orElseThrow();
        assertTrue(s.stable(), s.reasons().toString());
        assertEquals(LagVerdict.GROWING, s.lag().verdict());
        assertEquals(70.0, s.rates().sinkPerSecond(), 0.5);
        assertEquals(14.0, s.commitIntervalSeconds(), 1e-9);
    }

    @Test
    void anUnreachableSystemDegradesTheSnapshotAndLeavesItsFiguresUnknown() {
        PipelineSample a = sample(0, new long[] {1, 1, 1}, new long[] {1, 1, 1}, 0);
        PipelineSample b = new Builder(1000)
                .offsets(new long[] {1, 1, 1}, new long[] {1, 1, 1})
                .tasks(null)
                .unreachable(List.of("Kafka Connect: connection refused"))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(a, b), 30);
        assertTrue(s.degraded());
        assertEquals(List.of("unreachable: Kafka Connect: connection refused"), s.reasons());
        assertEquals(List.of(), s.tasks());
        assertNull(s.rates().indexPerSecond(), "the newest sample carries no index total: only one sample has it");
    }

    @Test
    void aPartitionTheGroupHadNotCommittedAtTheWindowStartIsLeftOutOfRates() {
        Map<Integer, Long> none = Map.of(1, 0L, 2, 0L);
        PipelineSample a =
                new Builder(0).end(new long[] {10, 10, 10}).committed(none).build();
        PipelineSample b = new Builder(1000)
                .end(new long[] {10, 10, 10})
                .committed(Map.of(0, 10L, 1, 10L, 2, 10L))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(a, b), 30);
        assertEquals(20.0, s.rates().sinkPerSecond(), 1e-9, "caught up: each partition's rate since its first reading");
        assertEquals(TopicPartition.onTopic("t", Map.of(0, 10L, 1, 10L, 2, 10L)), a.endOffsets());
        assertEquals(
                30L, SnapshotDerivation.derive(List.of(a), 30).lag().total(), "never committed: lags by its whole log");
    }

    @Test
    void aGroupWhoseFirstCommitsFallInsideTheWindowHasItsRateFromThemNotZero() {
        long[] end = {100, 100, 100};
        PipelineSample before = new Builder(0).end(end).committed(Map.of()).build();
        PipelineSample first = new Builder(1000)
                .end(end)
                .committed(Map.of(0, 10L, 1, 10L, 2, 10L))
                .build();
        PipelineSample second = new Builder(2000)
                .end(end)
                .committed(Map.of(0, 20L, 1, 20L, 2, 20L))
                .build();
        PipelineSnapshot once = SnapshotDerivation.derive(List.of(before, first), 30);
        assertNull(once.rates().sinkPerSecond(), "one commit per partition: unknown, not 0");
        assertTrue(
                once.reasons()
                        .contains("warming up: a task with lag has not committed twice since the scaler began reading"
                                + " (Connect commits every offset.flush.interval.ms, 60 s by default); one that"
                                + " commits nothing reads stalled once the window plus its interval, a minute until it"
                                + " has one, has passed"),
                once.reasons().toString());
        assertEquals(
                30.0,
                SnapshotDerivation.derive(List.of(before, first, second), 30)
                        .rates()
                        .sinkPerSecond(),
                1e-9);
    }

    @Test
    void theWindowForgetsSamplesOlderThanItsLength() {
        SampleWindow window = new SampleWindow(10_000);
        window.add(sample(0, new long[] {0, 0, 0}, new long[] {0, 0, 0}, 0));
        window.add(sample(5_000, new long[] {50, 0, 0}, new long[] {50, 0, 0}, 50));
        window.add(sample(15_000, new long[] {150, 0, 0}, new long[] {150, 0, 0}, 150));
        assertEquals(10.0, window.snapshot().orElseThrow().rates().sinkPerSecond(), 1e-9, "only 5 s..15 s remains");
    }

    /** Topics a (2 partitions) and b (3): task 0 holds a-0 and b-0, task 1 the rest; b-2 has lag and did not move. */
    private static PipelineSample twoTopics(long at, long committedB2) {
        Map<TopicPartition, Long> end = new java.util.TreeMap<>(Map.of(
                new TopicPartition("a", 0),
                10L + at / 100,
                new TopicPartition("a", 1),
                20L,
                new TopicPartition("b", 0),
                30L,
                new TopicPartition("b", 1),
                40L,
                new TopicPartition("b", 2),
                50L));
        Map<TopicPartition, Long> committed = new java.util.TreeMap<>(end);
        committed.put(new TopicPartition("b", 2), committedB2);
        Map<TopicPartition, Integer> owners = Map.of(
                new TopicPartition("a", 0),
                0,
                new TopicPartition("b", 0),
                0,
                new TopicPartition("a", 1),
                1,
                new TopicPartition("b", 1),
                1,
                new TopicPartition("b", 2),
                1);
        return SampleBuilder.at(at)
                .tasksMax(2)
                .topics(List.of("a", "b"))
                .tasks(TWO_RUNNING)
                .offsets(end, committed)
                .assignment(owners)
                .elasticsearch(null, null, null)
                .unreachable(new ArrayList<>())
                .build();
    }

    @Test
    void aSinkOfSeveralTopicsIsReadPerTopicAndPartitionAndDropsTheReadingsKeyedByPartitionAlone() {
        // task 1 never commits b-2's 5 records: watched from the start, it is judged once the window and Connect's
        // default interval have passed (it has no interval of its own)
        List<PipelineSample> samples = new ArrayList<>();
        for (long at = 0; at <= 100_000; at += 1_000) {
            samples.add(twoTopics(at, 45));
        }
        PipelineSnapshot s = SnapshotDerivation.derive(samples, 30);
        assertEquals(5, s.partitions());
        assertEquals(Map.of("a", 2, "b", 3), s.partitionsPerTopic());
        assertEquals("range", s.assignor());
        assertEquals(5L, s.lag().total(), "b-2 alone lags, by 5: every topic counts, not the first");
        assertEquals(
                Map.of("a", Map.of(0, 0L, 1, 0L), "b", Map.of(0, 0L, 1, 0L, 2, 5L)),
                s.lag().perTopic());
        assertNull(s.lag().perPartition(), "partition 0 of a is not partition 0 of b");
        assertEquals(
                Map.of("a", Map.of(0, 10.0, 1, 0.0), "b", Map.of(0, 0.0, 1, 0.0, 2, 0.0)),
                s.rates().appendPerTopic());
        assertNull(s.rates().appendPerPartition());
        assertEquals(10.0, s.rates().appendPerSecond(), 1e-9);
        assertEquals(0.0, s.tasks().get(1).recordsPerSecond(), 1e-9, "task 1 commits nothing");
        assertEquals(Map.of("a", List.of(0), "b", List.of(0)), s.tasks().get(0).partitionsByTopic());
        assertEquals(
                Map.of("a", List.of(1), "b", List.of(1, 2)), s.tasks().get(1).partitionsByTopic());
        assertNull(s.tasks().get(0).partitions());
        assertEquals(10.0, s.tasks().get(0).recordsPerSecond(), 1e-9, "a-0's commits");
        assertEquals(
                List.of(
                        "partitions [b-2] have lag 100 s old and their tasks committed nothing for longer than the window"
                                + " plus one commit interval (90 s): paused or stuck"),
                s.reasons());
    }

    @Test
    void aSinkOfOneTopicKeepsItsReadingsByPartitionBesideThosePerTopic() {
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(sample(0, new long[] {5, 5}, new long[] {3, 5}, 0)), 30);
        assertEquals(Map.of(0, 2L, 1, 0L), s.lag().perPartition());
        assertEquals(Map.of("t", Map.of(0, 2L, 1, 0L)), s.lag().perTopic());
        assertEquals(List.of(0, 1), s.tasks().get(0).partitions());
        assertEquals(Map.of("t", List.of(0, 1)), s.tasks().get(0).partitionsByTopic());
        assertEquals(Map.of("t", 2), s.partitionsPerTopic());
    }

    @Test
    void aRegexMatchingNoTopicSaysSo() {
        PipelineSample none = SampleBuilder.at(0)
                .topics(List.of())
                .tasks(TWO_RUNNING)
                .offsets(null, null)
                .assignment(null)
                .group(null, null)
                .elasticsearch(null, null, null)
                .unreachable(new ArrayList<>())
                .build();
        List<String> reasons = SnapshotDerivation.derive(List.of(none), 30).reasons();
        assertTrue(
                reasons.contains("the sink reads no topic: its topics.regex matches none of the cluster's topics"),
                reasons.toString());
    }

    private static PipelineSample.IndexReading written(String name, String writeIndex, long total) {
        return new PipelineSample.IndexReading(name, writeIndex, total, 1, 0, null, null, null);
    }

    @Test
    void eachIndexHasItsWriteIndexsRateAndARolloverRestartsItFromTheNewWriteIndex() {
        long[] offsets = {100, 100, 100};
        List<PipelineSample> window = List.of(
                new Builder(0)
                        .offsets(offsets, offsets)
                        .indexes(written("logs", "logs-1", 1_000), written("orders", "orders", 0))
                        .build(),
                new Builder(10_000)
                        .offsets(offsets, offsets)
                        .indexes(written("logs", "logs-1", 2_000), written("orders", "orders", 300))
                        .build(),
                new Builder(20_000)
                        .offsets(offsets, offsets)
                        .indexes(written("logs", "logs-2", 50), written("orders", "orders", 600))
                        .build(),
                new Builder(30_000)
                        .offsets(offsets, offsets)
                        .indexes(written("logs", "logs-2", 250), written("orders", "orders", 900))
                        .build());
        PipelineSnapshot s = SnapshotDerivation.derive(window, 30);
        assertEquals(
                List.of(
                        new PipelineSnapshot.Index("logs", "logs-2", 1, 0, 20.0, null, null, null),
                        new PipelineSnapshot.Index("orders", "orders", 1, 0, 30.0, null, null, null)),
                s.elasticsearch().indexes());
        assertEquals(50.0, s.rates().indexPerSecond(), 1e-9, "the rates of both write indexes");
        assertNull(s.elasticsearch().index(), "the single-index fields are for a sink of one index");
        assertNull(s.elasticsearch().primaryShards());

        PipelineSnapshot rolled = SnapshotDerivation.derive(window.subList(0, 3), 30);
        assertNull(
                rolled.elasticsearch().indexes().get(0).indexPerSecond(),
                "one sample of the new write index: no rate yet");
        assertNull(rolled.rates().indexPerSecond(), "a part of the indexes' rate would pass for the whole");
    }

    @Test
    void anIndexThatCannotBeReadSaysWhyAndAddsNothingToTheRate() {
        long[] offsets = {100, 100, 100};
        PipelineSample.IndexReading missing = new PipelineSample.IndexReading(
                "logs-shop-b", null, null, null, null, "data stream logs-shop-b does not exist", null, null);
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(
                        new Builder(0)
                                .offsets(offsets, offsets)
                                .indexes(written("logs-shop-a", ".ds-a-1", 0), missing)
                                .build(),
                        new Builder(10_000)
                                .offsets(offsets, offsets)
                                .indexes(written("logs-shop-a", ".ds-a-1", 100), missing)
                                .build()),
                30);
        assertEquals(10.0, s.rates().indexPerSecond(), 1e-9);
        assertEquals(
                "data stream logs-shop-b does not exist",
                s.elasticsearch().indexes().get(1).problem());
        assertTrue(
                s.stable(),
                "an index not there yet is said on the index, not a reason to hold the sink: " + s.reasons());
    }

    @Test
    void anIndexThatRefusesWritesOrIsRedMakesThePipelineUnstableAndSaysWhatToDo() {
        PipelineSample.IndexReading blocked = new PipelineSample.IndexReading(
                "logs", "logs-000002", 500L, 1, 0, null, "index.blocks.read_only_allow_delete", null);
        PipelineSnapshot s = steadyWith(blocked);
        assertEquals(
                "index.blocks.read_only_allow_delete",
                s.elasticsearch().indexes().get(0).writeBlock());
        assertFalse(s.stable());
        assertEquals(
                List.of("index logs-000002 (the write index of logs) refuses writes: its"
                        + " index.blocks.read_only_allow_delete is true, which Elasticsearch sets when a node's disk"
                        + " passes its flood-stage watermark: free disk space, then lift it (PUT logs-000002/_settings"
                        + " {\"index.blocks.read_only_allow_delete\": null}); more tasks would not help"),
                s.reasons());

        PipelineSample.IndexReading writeBlocked =
                new PipelineSample.IndexReading("i", "i", 500L, 1, 0, null, "index.blocks.write", null);
        PipelineSnapshot w = steadyWith(writeBlocked);
        assertEquals(
                List.of("index i refuses writes: its index.blocks.write is true: lift it (PUT i/_settings"
                        + " {\"index.blocks.write\": null}); more tasks would not help"),
                w.reasons());

        PipelineSample.IndexReading red = new PipelineSample.IndexReading("i", "i", 500L, 3, 0, null, null, 2);
        PipelineSnapshot r = steadyWith(red);
        assertEquals(2, r.elasticsearch().indexes().get(0).inactivePrimaries());
        assertEquals(
                List.of("index i is red: 2 of its 3 primary shards are not active (unassigned or starting), so writes"
                        + " to them wait and then fail; GET _cluster/allocation/explain says why; more tasks would not"
                        + " help"),
                r.reasons());
    }

    /** Two samples 10 s apart of a sink that neither lags nor moves, writing to the one index read as {@code index}. */
    private static PipelineSnapshot steadyWith(PipelineSample.IndexReading index) {
        long[] offsets = {100, 100, 100};
        return SnapshotDerivation.derive(
                List.of(
                        new Builder(0).offsets(offsets, offsets).indexes(index).build(),
                        new Builder(10_000)
                                .offsets(offsets, offsets)
                                .indexes(index)
                                .build()),
                30);
    }

    @Test
    void aSinkOfOneIndexKeepsItsSingleIndexFields() {
        long[] offsets = {100, 100, 100};
        PipelineSnapshot s = SnapshotDerivation.derive(
                List.of(sample(0, offsets, offsets, 0), sample(10_000, offsets, offsets, 50)), 30);
        assertEquals("i", s.elasticsearch().index());
        assertEquals(1, s.elasticsearch().primaryShards());
        assertEquals(
                List.of(new PipelineSnapshot.Index("i", "i", 1, 0, 5.0, null, null, null)),
                s.elasticsearch().indexes());
    }

    /** Task 0's consumer on partitions 0 and 1, task 1's on 2, each {@code records-lag} as given. */
    private static PipelineSample.WorkerMetrics positions(Double lastPollSecondsAgo, Long lag0, Long lag1, Long lag2) {
        Map<TopicPartition, Long> first = new java.util.TreeMap<>();
        if (lag0 != null) {
            first.put(new TopicPartition("t", 0), lag0);
        }
        first.put(new TopicPartition("t", 1), lag1);
        return new PipelineSample.WorkerMetrics(
                Map.of(
                        0,
                        new PipelineSample.TaskMetrics(
                                "exporter", 0.5, lastPollSecondsAgo, null, 10.0, null, null, first),
                        1,
                        new PipelineSample.TaskMetrics(
                                "exporter",
                                0.5,
                                lastPollSecondsAgo,
                                null,
                                10.0,
                                null,
                                null,
                                Map.of(new TopicPartition("t", 2), lag2))),
                Map.of());
    }

    @Test
    void whereEveryPartitionHasItsConsumersPositionTheUnconsumedLagIsReadFromThemAndTheCommittedStays() {
        // a minute between commits: the committed lag holds the minute's records, the positions only what waits
        PipelineSample first = new Builder(0)
                .offsets(new long[] {0, 0, 0}, new long[] {0, 0, 0})
                .build();
        PipelineSample before = new Builder(28_000)
                .end(new long[] {560, 560, 280})
                .committed(Map.of(0, 0L, 1, 0L, 2, 0L))
                .build();
        PipelineSample now = new Builder(30_000)
                .end(new long[] {600, 600, 300})
                .committed(Map.of(0, 0L, 1, 0L, 2, 0L))
                .workerMetrics(positions(0.0, 3L, 0L, 2L))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(first, before, now), 30);
        assertEquals(PipelineSnapshot.Lag.FROM_POSITIONS, s.lag().unconsumedFrom());
        assertEquals(5L, s.lag().unconsumed());
        assertEquals(1500L, s.lag().total(), "the committed lag is Kafka's tools' figure, as it was");
        assertEquals(
                List.of(3L, 0L, 2L),
                s.lag().partitions().stream()
                        .map(PipelineSnapshot.PartitionLag::unconsumed)
                        .toList());
        // partition 0's record at 597 arrived between the samples at 28 s (560) and 30 s (600), at 29.9 s
        assertEquals(0.1, s.lag().partitions().get(0).unconsumedSeconds(), 1e-9);
        assertEquals(0.0, s.lag().partitions().get(1).unconsumedSeconds());
    }

    @Test
    void aPositionFromBeforeTheConsumersLastPollCountsWhatArrivedSince() {
        // task 0 has been in put() for 2 s: its position is as of the sample at 28 s, 40 records ago per partition
        PipelineSample before = new Builder(28_000)
                .offsets(new long[] {560, 560, 280}, new long[] {500, 500, 250})
                .build();
        PipelineSample now = new Builder(30_000)
                .offsets(new long[] {600, 600, 300}, new long[] {500, 500, 250})
                .workerMetrics(positions(2.0, 10L, 0L, 0L))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(before, now), 30);
        assertEquals(
                List.of(50L, 40L, 20L),
                s.lag().partitions().stream()
                        .map(PipelineSnapshot.PartitionLag::unconsumed)
                        .toList());
        assertEquals(110L, s.lag().unconsumed());
    }

    @Test
    void aPositionNeverPutsMoreUnconsumedThanTheCommittedLag() {
        PipelineSample now = new Builder(30_000)
                .offsets(new long[] {600, 600, 300}, new long[] {598, 600, 300})
                .workerMetrics(positions(0.0, 9L, 0L, 0L))
                .build();
        PipelineSnapshot s = SnapshotDerivation.derive(List.of(now), 30);
        assertEquals(2L, s.lag().partitions().get(0).unconsumed());
    }

    @Test
    void withoutEveryPartitionsPositionTheUnconsumedLagComesFromTheCommits() {
        long[] offsets = {100, 100, 100};
        PipelineSnapshot partial = SnapshotDerivation.derive(
                List.of(new Builder(0)
                        .offsets(offsets, offsets)
                        .workerMetrics(positions(0.0, null, 0L, 0L))
                        .build()),
                30);
        assertEquals(PipelineSnapshot.Lag.FROM_COMMITS, partial.lag().unconsumedFrom());
        PipelineSnapshot none = SnapshotDerivation.derive(
                List.of(new Builder(0).offsets(offsets, offsets).build()), 30);
        assertEquals(PipelineSnapshot.Lag.FROM_COMMITS, none.lag().unconsumedFrom());
    }

    /** Builds samples; by default 3 partitions, two RUNNING tasks, a stable group, everything reachable. */
    private static final class Builder {
        private final long at;
        private Map<Integer, Long> end;
        private Map<Integer, Long> committed;
        private Long indexTotal;
        private List<PipelineSample.TaskState> tasks = TWO_RUNNING;
        private Map<Integer, Integer> assignment = ASSIGNMENT;
        private String groupState = "STABLE";
        private List<String> unreachable = List.of();
        private Map<String, Long> unreachableWorkers = Map.of();
        private PipelineSample.DeadLetterReading deadLetters;
        private List<PipelineSample.IndexReading> indexes;
        private PipelineSample.WorkerMetrics workerMetrics;

        Builder(long at) {
            this.at = at;
        }

        Builder offsets(long[] e, long[] c) {
            return end(e).committed(toMap(c));
        }

        Builder end(long[] e) {
            end = toMap(e);
            return this;
        }

        Builder committed(Map<Integer, Long> c) {
            committed = c;
            return this;
        }

        Builder indexTotal(long v) {
            indexTotal = v;
            return this;
        }

        Builder indexes(PipelineSample.IndexReading... v) {
            indexes = List.of(v);
            return this;
        }

        Builder tasks(List<PipelineSample.TaskState> v) {
            tasks = v;
            return this;
        }

        Builder assignment(Map<Integer, Integer> v) {
            assignment = v;
            return this;
        }

        Builder groupState(String v) {
            groupState = v;
            return this;
        }

        Builder unreachable(List<String> v) {
            unreachable = v;
            return this;
        }

        Builder unreachableWorkers(Map<String, Long> v) {
            unreachableWorkers = v;
            return this;
        }

        Builder deadLetters(Long total, String latestReason) {
            deadLetters = new PipelineSample.DeadLetterReading("t-dlq", total, latestReason);
            return this;
        }

        Builder workerMetrics(PipelineSample.WorkerMetrics v) {
            workerMetrics = v;
            return this;
        }

        PipelineSample build() {
            return new PipelineSample(
                    at,
                    "sink",
                    "sink",
                    2,
                    List.of("t"),
                    tasks,
                    TopicPartition.onTopic("t", end),
                    committed == null ? null : TopicPartition.onTopic("t", committed),
                    assignment == null ? null : TopicPartition.onTopic("t", assignment),
                    groupState,
                    "range",
                    indexes != null
                            ? indexes
                            : List.of(new PipelineSample.IndexReading("i", "i", indexTotal, 1, 0, null, null, null)),
                    1,
                    0L,
                    0,
                    new ArrayList<>(unreachable),
                    unreachableWorkers,
                    deadLetters,
                    workerMetrics,
                    null);
        }

        private static Map<Integer, Long> toMap(long[] values) {
            Map<Integer, Long> m = new java.util.TreeMap<>();
            for (int i = 0; i < values.length; i++) {
                m.put(i, values[i]);
            }
            return m;
        }
    }
}
