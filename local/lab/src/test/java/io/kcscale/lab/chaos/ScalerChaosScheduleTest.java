package io.kcscale.lab.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScalerChaosScheduleTest {

    @Test
    void aSeedGivesOneScheduleEachKindItsRoundsInOrderWithinTheWindowAndFreezesAndCutsOutlastTheLease() {
        ScalerChaosSchedule s = ScalerChaosSchedule.create(7, 600, 3, 12, 1.0);
        assertEquals(s, ScalerChaosSchedule.create(7, 600, 3, 12, 1.0));
        assertEquals(12, s.disruptions().size());
        for (ScalerDisruption d : ScalerDisruption.values()) {
            assertEquals(
                    3, s.disruptions().stream().filter(x -> x.disruption() == d).count(), d.name());
        }
        double last = 0;
        for (ScalerChaosSchedule.Scheduled d : s.disruptions()) {
            assertTrue(d.atSeconds() > last && d.atSeconds() < 600, s.toString());
            last = d.atSeconds();
            switch (d.disruption()) {
                case FREEZE, CUT ->
                    assertTrue(d.holdSeconds() > 12 * 1.2 - 0.1 && d.holdSeconds() < 12 * 2.2 + 0.1, d.toString());
                case KILL -> assertTrue(d.holdSeconds() >= 2 && d.holdSeconds() <= 6, d.toString());
                case RESTART -> assertEquals(0, d.holdSeconds());
            }
        }
        assertTrue(s.disruptions().stream().anyMatch(ScalerChaosSchedule.Scheduled::onLeader));
        assertTrue(s.disruptions().stream().anyMatch(d -> !d.onLeader()), "some hit a follower: " + s.disruptions());
        List<ScalerChaosSchedule.Scheduled> other =
                ScalerChaosSchedule.create(8, 600, 3, 12, 1.0).disruptions();
        assertTrue(!other.equals(s.disruptions()), "another seed, another schedule");
        assertEquals(
                Arrays.asList(ScalerDisruption.values()).size(),
                ScalerChaosSchedule.create(1, 100, 1, 12, 0.3).disruptions().size());
    }
}
