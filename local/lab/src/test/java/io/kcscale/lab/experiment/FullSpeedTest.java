package io.kcscale.lab.experiment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FullSpeedTest {

    @Test
    void aBacklogDrainedDuringTheWarmUpRanDryThoughTheWindowConsumedNothing() {
        assertTrue(FullSpeed.ranDry(0, 0), "nothing left and nothing consumed: the warm-up drained it");
        assertTrue(FullSpeed.ranDry(40, 1_000), "4% left of what the window consumed");
        assertFalse(FullSpeed.ranDry(60, 1_000));
        assertFalse(
                FullSpeed.ranDry(5_000, 0),
                "records waiting and none consumed: the sink cannot consume, which is no dry run");
    }
}
