package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LagVerdictTest {

    /** owned, lag, committed, previous end, previous lag, oldest committed -> verdict ("" for null). */
    @ParameterizedTest(
            name = "{6}: owned {0}, lag {1}, committed {2}, previous end {3}, previous lag {4}, oldest committed {5}")
    @CsvSource(
            nullValues = "null",
            value = {
                "false, 500, 100, 550, 400, 100, STOPPED",
                "false, 0, 600, 600, 0, 600, STOPPED",
                "true, 0, 600, 600, 0, 500, CAUGHT_UP",
                "null, 0, 600, null, null, null, CAUGHT_UP",
                // committed at least where the end offset was a sample ago: only records newer than one sample wait
                "true, 40, 560, 550, 30, 500, CAUGHT_UP",
                "true, 500, 100, 550, 400, 100, STALLED",
                "null, 500, 100, 550, 400, 100, STALLED",
                "true, 500, 300, 700, 400, 100, GROWING",
                "true, 300, 300, 550, 400, 100, CATCHING_UP",
                "true, 400, 300, 650, 400, 100, CATCHING_UP",
                "true, 500, 100, null, null, null, ",
            })
    void aPartitionsVerdict(
            Boolean owned,
            long lag,
            long committed,
            Long previousEnd,
            Long previousLag,
            Long oldestCommitted,
            LagVerdict expected) {
        assertEquals(expected, LagVerdict.of(owned, lag, committed, previousEnd, previousLag, oldestCommitted));
    }

    @Test
    void aConnectorTakesItsWorstPartitionsVerdict() {
        assertEquals(
                LagVerdict.STALLED,
                LagVerdict.worst(Arrays.asList(LagVerdict.CAUGHT_UP, null, LagVerdict.STALLED, LagVerdict.GROWING)));
        assertEquals(LagVerdict.STOPPED, LagVerdict.worst(List.of(LagVerdict.STOPPED, LagVerdict.STALLED)));
        assertNull(LagVerdict.worst(Arrays.asList(null, null)));
        assertEquals("catching-up", LagVerdict.CATCHING_UP.label());
    }
}
