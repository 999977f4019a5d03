package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.checks.keys.DistinctCounter;
import io.kcscale.scaler.checks.keys.KeySample;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyCardinalityCheckTest {

    private static final KeyCardinalityCheck CHECK = new KeyCardinalityCheck();
    /** What a sample of 1,800 stock trades keyed by side shows: the key field first, a timestamp unique per record. */
    private static final Map<String, Long> TRADE_FIELDS = orderedFields(
            "side",
            2L,
            "quantity",
            1512L,
            "symbol",
            7L,
            "price",
            832L,
            "account",
            4L,
            "userid",
            9L,
            "produced_at_ms",
            1800L);

    private static Map<String, Long> orderedFields(Object... pairs) {
        Map<String, Long> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.put((String) pairs[i], (Long) pairs[i + 1]);
        }
        return fields;
    }

    private static Fixture keyedBySide(String keyFieldConfig) {
        Fixture f = new Fixture();
        f.keys = Fixture.keys(1800, 0, 2, TRADE_FIELDS);
        Map<String, String> source = new LinkedHashMap<>(Map.of("kafka.topic", "t", "quickstart", "stock_trades"));
        if (keyFieldConfig != null) {
            source.put("schema.keyfield", keyFieldConfig);
        }
        f.otherConnectors = List.of(new CheckSamples.Connector("trades", "source", "RUNNING", source));
        return f;
    }

    @Test
    void twoKeysForThreeTasksIsCriticalWithItsEvidenceAndNamesABetterField() {
        Finding f = keyedBySide("side").run(CHECK);
        assertEquals(Severity.CRITICAL, f.severity());
        assertEquals("key-cardinality", f.id());
        Map<String, Object> e = f.evidence();
        assertEquals("side", e.get("keyField"));
        assertEquals("trades", e.get("sourceConnector"));
        assertEquals(2L, e.get("distinctKeys"));
        assertEquals(true, e.get("distinctKeysExact"));
        assertEquals(20, e.get("partitions"));
        assertEquals(3, e.get("tasks"));
        assertEquals(0.1, e.get("ratio"));
        assertEquals(1800L, e.get("sampledRecords"));
        assertTrue(f.title().contains("only 2 distinct keys"), f.title());
        // price meets 20× (≥ 400) with the fewest values; produced_at_ms is unique per record and groups nothing
        assertTrue(
                f.advice()
                        .startsWith(
                                "Key by price: it had 832 distinct values in the 1800 sampled records, the key field side 2."),
                f.advice());
        assertTrue(f.advice().contains("On source connector trades set \"schema.keyfield\": \"price\"."), f.advice());
        assertTrue(f.advice().contains("More partitions do not help: 2 keys fill at most 2 partitions"), f.advice());
    }

    @Test
    void anUnsetKeyFieldIsTheRecordsFirstFieldAndTheAdviceSaysSo() {
        Finding f = keyedBySide(null).run(CHECK);
        assertEquals("first field of the record (side)", f.evidence().get("keyField"));
        assertTrue(f.advice().contains("(unset, the key is the record's first field)"), f.advice());
    }

    @Test
    void aSourceThatDoesNotSayLeavesTheKeyFieldOut() {
        Fixture f = keyedBySide(null);
        f.otherConnectors = List.of(new CheckSamples.Connector("jdbc", "source", "RUNNING", Map.of("topic", "t")));
        Finding finding = f.run(CHECK);
        assertNull(finding.evidence().get("keyField"));
        assertEquals("jdbc", finding.evidence().get("sourceConnector"));
        assertFalse(finding.advice().contains("schema.keyfield"), finding.advice());
        f.otherConnectors = List.of();
        assertNull(f.run(CHECK).evidence().get("sourceConnector"));
    }

    @ParameterizedTest(name = "{0} distinct keys, 20 partitions, 3 tasks: {1}")
    @CsvSource({"2, CRITICAL", "3, WARNING", "199, WARNING", "200, INFO", "399, INFO", "400, OK", "5000, OK"})
    void theRuleIsTenTimesPartitionsTwentyGoodAndFewerThanTheTasksCritical(long distinct, Severity expected) {
        Fixture f = new Fixture();
        f.keys = Fixture.keys(10_000, 0, distinct, Map.of());
        Finding finding = f.run(CHECK);
        assertEquals(expected, finding.severity(), finding.title());
        assertEquals(
                Math.round(distinct / 20.0 * 100) / 100.0, finding.evidence().get("ratio"));
    }

    @Test
    void theTasksWantedSetTheCriticalEdge() {
        Fixture f = new Fixture();
        f.keys = Fixture.keys(10_000, 0, 5, Map.of());
        f.tasksWanted = 5;
        assertEquals(Severity.WARNING, f.run(CHECK).severity(), "5 keys can feed 5 tasks");
        f.tasksWanted = 6;
        assertEquals(Severity.CRITICAL, f.run(CHECK).severity(), "5 keys cannot feed 6 tasks");
    }

    @Test
    void aSampleTooSmallToShowTwentyTimesIsInconclusiveUnlessItsKeysRepeat() {
        Fixture f = new Fixture();
        f.keys = Fixture.keys(100, 0, 80, Map.of());
        Finding small = f.run(CHECK);
        assertEquals(Severity.INFO, small.severity());
        assertTrue(small.title().startsWith("sample too small to judge"), small.title());
        f.keys = Fixture.keys(100, 0, 50, Map.of());
        assertEquals(
                Severity.WARNING, f.run(CHECK).severity(), "half the keys repeat: a low cardinality shows already");
        f.keys = Fixture.keys(100, 0, 2, Map.of());
        assertEquals(Severity.CRITICAL, f.run(CHECK).severity());
        f.keys = Fixture.keys(400, 0, 400, Map.of());
        assertEquals(Severity.OK, f.run(CHECK).severity(), "400 records all distinct already show 20×");
    }

    @Test
    void recordsWithoutKeysAreSpreadByTheProducer() {
        Fixture f = new Fixture();
        f.keys = Fixture.keys(1000, 1000, 0, Map.of());
        Finding finding = f.run(CHECK);
        assertEquals(Severity.OK, finding.severity());
        assertEquals(1000L, finding.evidence().get("nullKeys"));
        f.keys = Fixture.keys(1000, 990, 2, Map.of());
        assertEquals(
                Severity.CRITICAL,
                f.run(CHECK).severity(),
                "10 keyed records with 2 keys: the keyed ones pin 2 partitions");
    }

    @Test
    void unknownsAreInfoSayingWhy() {
        Fixture f = new Fixture();
        f.keys = null;
        f.keysUnavailable = "topic t does not exist";
        Finding missing = f.run(CHECK);
        assertEquals(Severity.INFO, missing.severity());
        assertTrue(missing.title().endsWith("topic t does not exist"), missing.title());
        f = new Fixture();
        f.partitions = null;
        assertEquals(Severity.INFO, f.run(CHECK).severity());
        f = new Fixture();
        f.keys = Fixture.keys(0, 0, 0, Map.of());
        assertTrue(f.run(CHECK).title().startsWith("no records to sample"));
    }

    @Test
    void anEstimateShowsItsBounds() {
        Fixture f = new Fixture();
        f.keys = new KeySample(
                "t",
                200_000,
                0,
                new DistinctCounter.Distinct(150_000, false, 145_000, 155_000),
                Map.of(),
                0,
                null,
                20,
                20,
                900,
                "records",
                Fixture.everyPartition(20));
        Map<String, Object> e = f.run(CHECK).evidence();
        assertEquals(false, e.get("distinctKeysExact"));
        assertEquals(145_000L, e.get("distinctKeysLowerBound"));
        assertEquals(155_000L, e.get("distinctKeysUpperBound"));
        assertEquals(0.9, e.get("samplingSeconds"));
    }

    @Test
    void theBetterFieldFallsBackToTheMostValuesAndIsAbsentWhenNoneHasMore() {
        KeySample onlyUnique = Fixture.keys(1800, 0, 2, orderedFields("side", 2L, "produced_at_ms", 1800L));
        assertEquals(
                "produced_at_ms",
                KeyCardinalityCheck.betterField(onlyUnique, "side", 2, 20)
                        .orElseThrow()
                        .getKey());
        KeySample belowTheRule = Fixture.keys(1800, 0, 2, orderedFields("side", 2L, "symbol", 7L, "account", 4L));
        assertEquals(
                "symbol",
                KeyCardinalityCheck.betterField(belowTheRule, "side", 2, 20)
                        .orElseThrow()
                        .getKey());
        KeySample none = Fixture.keys(1800, 0, 2, orderedFields("side", 2L));
        assertTrue(KeyCardinalityCheck.betterField(none, "side", 2, 20).isEmpty());
        Fixture f = keyedBySide("side");
        f.keys = none;
        assertTrue(f.run(CHECK).advice().startsWith("No field of the sampled values has more distinct values"));
    }

    @Test
    void theKeysOfASinkOfSeveralTopicsAreJudgedAgainstTheSampledTopicsPartitions() {
        Fixture f = PartitionCountCheckTest.threeTopics("range", 3);
        f.keys = new KeySample(
                "c",
                10_000,
                0,
                new DistinctCounter.Distinct(300, true, 300, 300),
                Map.of(),
                10_000,
                null,
                12,
                12,
                500,
                "end",
                Fixture.everyPartition(12));
        Finding finding = f.run(CHECK);
        @SuppressWarnings("unchecked")
        Map<String, Object> c =
                (Map<String, Object>) ((Map<String, Object>) finding.evidence().get("perTopic")).get("c");
        assertEquals(12, c.get("partitions"), "topic c's, not the 23 of the three topics");
        assertEquals(List.of("a", "b"), finding.evidence().get("topicsNotSampled"));
        assertEquals(
                Severity.OK,
                finding.severity(),
                "300 keys are 25x c's 12 partitions (13x the 23 of all three): " + finding.title());
        assertTrue(finding.title().startsWith("topic c: 300 distinct keys for 12 partitions"), finding.title());
    }

    @Test
    void eachTopicOfASinkIsJudgedOnItsOwnKeysAndTheWorstTopicNamed() {
        Fixture f = PartitionCountCheckTest.threeTopics("range", 3);
        f.keysOfTopics = List.of(topicKeys("a", 3, 300), topicKeys("b", 8, 50), topicKeys("c", 12, 1_000));
        Finding finding = f.run(CHECK);
        assertEquals(Severity.WARNING, finding.severity(), finding.title());
        assertTrue(finding.title().startsWith("topic b: 50 distinct keys for 8 partitions"), finding.title());
        assertEquals(23L, finding.evidence().get("partitionsWithKeysAtMost"));
    }

    @Test
    void keysThatReachFewerPartitionsInAllThanTasksWantedAreCritical() {
        Fixture f = PartitionCountCheckTest.threeTopics("round-robin", 10);
        // two keys in a, one in b, three in c: at most 6 of the 23 partitions ever hold records
        f.keysOfTopics = List.of(topicKeys("a", 3, 2), topicKeys("b", 8, 1), topicKeys("c", 12, 3));
        Finding finding = f.run(CHECK);
        assertEquals(Severity.CRITICAL, finding.severity(), finding.title());
        assertEquals(
                "the keys of the 3 topics reach at most 6 partitions, so at most 6 of 10 tasks can work",
                finding.title());
    }

    private static KeySample topicKeys(String topic, int partitions, long distinct) {
        return new KeySample(
                topic,
                10_000,
                0,
                new DistinctCounter.Distinct(distinct, true, distinct, distinct),
                Map.of(),
                10_000,
                null,
                partitions,
                partitions,
                500,
                "end",
                Fixture.everyPartition(partitions));
    }
}
