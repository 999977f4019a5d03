package io.kcscale.scaler.autoscale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyMemoryTest {

    @Test
    void aSeriesKeepsOnlyWhatIsYoungerThanItsAgeAndAtMostItsCount() {
        PolicyMemory m = new PolicyMemory();
        for (long t = 0; t <= 10; t++) {
            m.remember("rates", t * 1000, t, 3_000);
        }
        assertEquals(
                List.of(7.0, 8.0, 9.0, 10.0),
                m.recall("rates").stream().map(PolicyMemory.Sample::value).toList());
        for (int i = 0; i < PolicyMemory.MAX_SAMPLES_PER_SERIES + 10; i++) {
            m.remember("many", i, i, Long.MAX_VALUE / 2);
        }
        assertEquals(PolicyMemory.MAX_SAMPLES_PER_SERIES, m.recall("many").size());
        assertEquals(10.0, m.recall("many").get(0).value(), "the oldest went first");
    }

    @Test
    void aCopyCarriesTheSeriesAndChangesApart() {
        PolicyMemory m = new PolicyMemory();
        m.remember("recommendations", 0, 4, 300_000);
        PolicyMemory c = m.copy();
        c.remember("recommendations", 15_000, 8, 300_000);
        c.forget("other");
        assertEquals(1, m.recall("recommendations").size());
        assertEquals(2, c.recall("recommendations").size());
        assertEquals(8.0, c.latest("recommendations").value());
    }

    @Test
    void moreSeriesThanTheBoundAreRefused() {
        PolicyMemory m = new PolicyMemory();
        for (int i = 0; i < PolicyMemory.MAX_SERIES; i++) {
            m.remember("s" + i, 0, 0, 0);
        }
        assertThrows(IllegalStateException.class, () -> m.remember("one-more", 0, 0, 0));
    }
}
