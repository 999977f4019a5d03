package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteQueueTest {

    private static List<PipelineSample> window(Integer... queues) {
        List<PipelineSample> samples = new ArrayList<>();
        Map<TopicPartition, Long> offsets = Map.of(new TopicPartition("t", 0), 100L);
        for (int i = 0; i < queues.length; i++) {
            samples.add(SampleBuilder.at(i * 2_000L)
                    .tasks(List.of(new PipelineSample.TaskState(0, "RUNNING", "w")))
                    .offsets(offsets)
                    .assignment(Map.of(new TopicPartition("t", 0), 0))
                    .index("i", 1000L + i, 1, 0)
                    .elasticsearch(1, 0L, queues[i])
                    .build());
        }
        return samples;
    }

    @Test
    void aQueueOneReadingCaughtIsNotASinkPushingBack() {
        PipelineSnapshot s = SnapshotDerivation.derive(window(0, 0, 3, 0, 1), 8);
        assertEquals(0, s.elasticsearch().writeQueue());
        assertFalse(s.elasticsearch().rejectingWrites());
    }

    @Test
    void aQueueTheWholeWindowLongIs() {
        PipelineSnapshot s = SnapshotDerivation.derive(window(4, 2, null, 3, 5), 8);
        assertEquals(2, s.elasticsearch().writeQueue(), "the least reading; one the node did not answer is skipped");
        assertTrue(s.elasticsearch().rejectingWrites());
    }

    @Test
    void readingsThatSpanLessThanHalfTheWindowAreNotYetAQueue() {
        assertNull(SnapshotDerivation.derive(window(1, 1), 30).elasticsearch().writeQueue(), "2 s of a 30 s window");
        assertNull(
                SnapshotDerivation.derive(window(1, 1, 1, 1, 1, 1, 1, 1), 30)
                        .elasticsearch()
                        .writeQueue(),
                "14 s of a 30 s window");
        PipelineSnapshot s = SnapshotDerivation.derive(window(1, 1, 1, 1, 1, 1, 1, 1, 1), 30);
        assertEquals(1, s.elasticsearch().writeQueue(), "16 s of a 30 s window");
        assertTrue(s.elasticsearch().rejectingWrites());
    }

    @Test
    void noReadingNowIsNoQueue() {
        assertNull(SnapshotDerivation.derive(window(4, 4, null), 30)
                .elasticsearch()
                .writeQueue());
    }
}
