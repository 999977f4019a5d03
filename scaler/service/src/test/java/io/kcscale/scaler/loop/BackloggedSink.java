package io.kcscale.scaler.loop;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A sink named {@code sink} of one topic of 20 partitions behind a growing backlog, its tasks sharing 100 records/s:
 * from one task, the ratio policy of 5 s scales up to 9 (as in RecommendationFromDecisionTest).
 */
public final class BackloggedSink {

    private BackloggedSink() {}

    public static PipelineSnapshot snapshot(int tasksMax) {
        List<PipelineSnapshot.Task> tasks = new ArrayList<>();
        for (int i = 0; i < tasksMax; i++) {
            tasks.add(new PipelineSnapshot.Task(
                    i, "RUNNING", "w:8083", List.of(i), Map.of("t", List.of(i)), 100.0 / tasksMax, null, null));
        }
        return new PipelineSnapshot(
                "sink",
                List.of("t"),
                tasksMax,
                20,
                Map.of("t", 20),
                "range",
                tasks,
                new PipelineSnapshot.Lag(
                        30_000L, Map.of(), Map.of("t", Map.of()), null, null, null, List.of(), 30_000L, null),
                new PipelineSnapshot.Rates(400.0, 100.0, 100.0, Map.of(), Map.of("t", Map.of())),
                300.0,
                true,
                List.of(),
                new PipelineSnapshot.Elasticsearch("i", 1, 0, 1, 0.0, 0),
                null,
                false,
                List.of(),
                Map.of(),
                null,
                30,
                0);
    }
}
