package io.kcscale.scaler.ports;

import io.kcscale.scaler.model.PipelineSample;
import java.util.List;
import java.util.Map;

/**
 * Port: what the Connect workers publish of sink tasks (busy time, read rate, consumer positions), by connector. A read
 * starts when asked and is awaited later, so that a sampling round waits for it alongside its other reads.
 */
public interface TaskMetricsReadings {

    /** A sink connector to read: its topics, and its tasks with the workers Connect places them on. */
    record Sink(List<String> topics, List<PipelineSample.TaskState> tasks) {}

    /** Starts reading the sinks' tasks, by connector. */
    Pending start(Map<String, Sink> sinks);

    /** A read under way. */
    interface Pending {
        /** Each connector's tasks as read, with why the others were not; bounded in time by the reader. */
        Map<String, PipelineSample.WorkerMetrics> await();
    }
}
