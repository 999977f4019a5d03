package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LagVerdictTest {

    /** owned, lag, caught up, stalled, judged, lag at the last commit, lag at the commit before -> verdict. */
    @ParameterizedTest(
            name = "{7}: owned {0}, lag {1}, caught up {2}, stalled {3}, judged {4}, lag at commits {6} -> {5}")
    @CsvSource(
            nullValues = "null",
            value = {
                "false, 500, false, true, true, 400, 300, STOPPED",
                "false, 0, true, false, true, 0, 0, STOPPED",
                "true, 0, false, false, true, 0, 0, CAUGHT_UP",
                "null, 0, false, false, false, null, null, CAUGHT_UP",
                // the last commit took everything that existed a sample before it: only newer records wait
                "true, 40, true, false, true, 40, 30, CAUGHT_UP",
                "true, 500, false, true, true, 400, 300, STALLED",
                "null, 500, false, true, true, null, null, STALLED",
                "true, 500, false, false, true, 400, 300, GROWING",
                "true, 300, false, false, true, 300, 400, CATCHING_UP",
                "true, 400, false, false, true, 400, 400, CATCHING_UP",
                // a task watched too briefly, or with one commit seen, cannot tell yet
                "true, 500, false, false, false, 400, 300, ",
                "true, 500, false, false, true, 400, null, ",
            })
    void aPartitionsVerdict(
            Boolean owned,
            long lag,
            boolean caughtUp,
            boolean stalled,
            boolean judged,
            Long lagAtLastCommit,
            Long lagAtCommitBefore,
            LagVerdict expected) {
        assertEquals(
                expected, LagVerdict.of(owned, lag, caughtUp, stalled, judged, lagAtLastCommit, lagAtCommitBefore));
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
