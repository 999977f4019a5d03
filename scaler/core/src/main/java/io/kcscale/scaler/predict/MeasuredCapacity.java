package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.InvalidInputException;
import java.util.Locale;

/**
 * A live per-task rate as a capacity. A task's rate is what it can do only while it is saturated:
 * a backlog of at least a second of work that is not draining. Otherwise it is what the task is
 * given, and predicting from it would size for today's load, not for the task's limit. Pure.
 */
public final class MeasuredCapacity {

    /** Below this share of the sink rate, appends count as "draining": the tasks have headroom. */
    private static final double NOT_DRAINING = 0.98;

    private MeasuredCapacity() {}

    /**
     * @return records/s one task sustains, from a saturated pipeline
     * @throws InvalidInputException on field {@code measure} when the pipeline is not saturated
     */
    public static double perTaskRate(String connector, int tasksRunning, double appendRate, double sinkRate, long lag) {
        if (tasksRunning < 1 || sinkRate <= 0) {
            throw new InvalidInputException(
                    "measure",
                    String.format(
                            Locale.ROOT,
                            "%s consumes nothing now (%d tasks RUNNING, %.1f records/s): there is no rate to measure",
                            connector,
                            tasksRunning,
                            sinkRate));
        }
        boolean backlog = lag >= sinkRate;
        boolean draining = appendRate < NOT_DRAINING * sinkRate;
        if (!backlog || draining) {
            throw new InvalidInputException(
                    "measure",
                    String.format(
                            Locale.ROOT,
                            "%s is not saturated (lag %d, appended %.1f/s, consumed %.1f/s): its per-task rate is what it is given,"
                                    + " not a capacity; raise the load until lag grows (./kcscale load --rate ...), or give {0}",
                            connector,
                            lag,
                            appendRate,
                            sinkRate),
                    "perTaskRate");
        }
        return sinkRate / tasksRunning;
    }
}
