package io.kcscale.lab.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosScheduleTest {

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        assertEquals(ChaosSchedule.create(7, 60, 2, 20, 2, 5), ChaosSchedule.create(7, 60, 2, 20, 2, 5));
        assertNotEquals(
                ChaosSchedule.create(7, 60, 2, 20, 2, 5).faults(),
                ChaosSchedule.create(8, 60, 2, 20, 2, 5).faults());
    }

    @Test
    void everyFaultComesOnceAndMalformedRecordsInTheirBatches() {
        ChaosSchedule s = ChaosSchedule.create(3, 600, 2, 20, 4, 25);
        List<Fault> kinds = s.faults().stream().map(ScheduledFault::fault).toList();
        for (Fault f : List.of(
                Fault.WORKER_KILL,
                Fault.ELASTICSEARCH_KILL,
                Fault.BROKER_RESTART,
                Fault.SCALE_TO_3,
                Fault.SCALE_TO_2)) {
            assertEquals(1, kinds.stream().filter(f::equals).count(), f.name());
        }
        assertEquals(4, kinds.stream().filter(Fault.MALFORMED::equals).count());
        assertEquals(100, s.malformed());
        assertEquals(
                100, s.faults().stream().mapToInt(f -> f.partitions().size()).sum());
        assertTrue(s.faults().stream().flatMap(f -> f.partitions().stream()).allMatch(p -> p >= 0 && p < 20));
    }

    @Test
    void theScaleTo3AlwaysPrecedesTheScaleTo2() {
        for (long seed = 0; seed < 200; seed++) {
            List<Fault> kinds = ChaosSchedule.create(seed, 60, 2, 20, 2, 5).faults().stream()
                    .map(ScheduledFault::fault)
                    .toList();
            assertTrue(
                    kinds.indexOf(Fault.SCALE_TO_3) < kinds.indexOf(Fault.SCALE_TO_2), "seed " + seed + ": " + kinds);
        }
    }

    @Test
    void faultsFallInTheMiddleOfTheirSlotsInOrderWithinTheWindow() {
        for (long seed = 0; seed < 50; seed++) {
            List<ScheduledFault> faults =
                    ChaosSchedule.create(seed, 70, 2, 20, 2, 5).faults();
            double slot = 70.0 / faults.size();
            for (int i = 0; i < faults.size(); i++) {
                double at = faults.get(i).atSeconds();
                assertTrue(
                        at >= slot * (i + 0.25) - 0.05 && at <= slot * (i + 0.75) + 0.05,
                        "seed " + seed + " fault " + i + " at " + at);
            }
        }
    }

    @Test
    void eachFaultNamesWhatItHits() {
        ChaosSchedule s = ChaosSchedule.create(1, 60, 2, 20, 1, 3);
        for (ScheduledFault f : s.faults()) {
            switch (f.fault()) {
                case WORKER_KILL -> assertTrue(List.of("connect-0", "connect-1").contains(f.target()), f.target());
                case ELASTICSEARCH_KILL -> assertEquals("elasticsearch", f.target());
                case BROKER_RESTART -> assertEquals("kafka", f.target());
                case SCALE_TO_3, SCALE_TO_2 -> assertEquals("stocks-es-sink", f.target());
                case MALFORMED -> assertEquals(3, f.partitions().size());
            }
        }
    }

    @Test
    void refusesAScheduleWithNothingToRunOn() {
        assertThrows(IllegalArgumentException.class, () -> ChaosSchedule.create(1, 0, 2, 20, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> ChaosSchedule.create(1, 60, 0, 20, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> ChaosSchedule.create(1, 60, 2, 20, 1, 0));
    }
}
