package io.kcscale.scaler.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PartitionSkewCheckTest {

    private static final PartitionSkewCheck CHECK = new PartitionSkewCheck();

    private static Finding withRates(double... perSecond) {
        Fixture f = new Fixture();
        f.partitions = perSecond.length;
        f.appendPerPartition = Fixture.rates(perSecond);
        f.assignment = Fixture.roundRobin(perSecond.length, 1);
        return f.run(CHECK);
    }

    @Test
    void anEvenSpreadIsOkWithItsFigures() {
        Finding f = new Fixture().run(CHECK);
        assertEquals(Severity.OK, f.severity(), f.title());
        assertEquals(20, f.evidence().get("partitions"));
        assertEquals(
                2000L, f.evidence().get("recordsInWindow"), "10/s on 20 partitions over the 10 s the samples span");
        assertEquals(10.0, f.evidence().get("windowSeconds"));
        assertEquals(1.0, f.evidence().get("maxMeanRatio"));
        assertEquals(0, f.evidence().get("emptyPartitions"));
        assertEquals(0.05, f.evidence().get("hottestShare"));
    }

    @Test
    void twiceTheMeanIsTheHotEdge() {
        // 40,10,10: mean 20, max 40
        Finding hot = withRates(40, 10, 10);
        assertEquals(Severity.WARNING, hot.severity());
        assertEquals(0, hot.evidence().get("hottestPartition"));
        assertEquals(400L, hot.evidence().get("hottestRecords"));
        assertEquals(2.0, hot.evidence().get("maxMeanRatio"));
        assertEquals(0.67, hot.evidence().get("hottestShare"));
        assertTrue(hot.title().startsWith("partition 0 took 67% of the records (2.0× the mean)"), hot.title());
        assertTrue(hot.advice().contains("about 1.5× one task's rate"), hot.advice());
        assertEquals(Severity.OK, withRates(39, 10, 10).severity(), "39/19.67 is under 2");
    }

    @Test
    void anEmptyPartitionIsAWarningNamingIt() {
        Finding f = withRates(10, 10, 0);
        assertEquals(Severity.WARNING, f.severity());
        assertEquals(1, f.evidence().get("emptyPartitions"));
        assertEquals(List.of(2), f.evidence().get("emptyPartitionIds"));
        assertTrue(f.title().contains("1 of 3 partitions received none"), f.title());
    }

    @Test
    void tooFewRecordsPerPartitionAreNotJudged() {
        assertEquals(Severity.INFO, withRates(2.9, 2.9, 0).severity(), "19 per partition");
        assertEquals(Severity.WARNING, withRates(4.5, 4.5, 0).severity(), "30 per partition: judged");
        assertEquals(Severity.INFO, withRates(0, 0, 0).severity());
    }

    @Test
    void withoutTwoSamplesOfOffsetsItWaits() {
        Fixture f = new Fixture();
        f.appendPerPartition = null;
        assertEquals(Severity.INFO, f.run(CHECK).severity());
        f = new Fixture();
        f.window = List.of(f.sample(0, f.assignment));
        assertEquals(Severity.INFO, f.run(CHECK).severity());
        assertEquals(Map.of("partitions", 20), f.run(CHECK).evidence());
    }
}
