package io.kcscale.scaler.predict;

import java.util.OptionalInt;

/** How a connector's total throughput grows with its task count. */
public interface ScalingModel {

    /** Relative slack so that floating-point noise in rate arithmetic (1.1 / 0.1 = 11.000000000000002) adds no task. */
    double TOLERANCE = 1e-12;

    /** Records per second that {@code tasks} tasks sustain. */
    double throughput(int tasks);

    /** The task count with the highest throughput; {@link Integer#MAX_VALUE} when throughput never falls. */
    int peakTasks();

    /** The least upper bound of throughput over all task counts; infinite when unbounded. */
    double ceilingRate();

    /**
     * The fewest tasks that sustain {@code rate}; empty when no count up to {@link #peakTasks()}
     * does (the rate is above the ceiling, or needs more tasks than an int holds).
     */
    default OptionalInt tasksFor(double rate) {
        int high = peakTasks();
        if (!reaches(throughput(high), rate)) {
            return OptionalInt.empty();
        }
        // throughput rises up to the peak, so the smallest sufficient count is found by bisection
        int low = 1;
        while (low < high) {
            int mid = low + (high - low) / 2;
            if (reaches(throughput(mid), rate)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return OptionalInt.of(low);
    }

    private static boolean reaches(double throughput, double rate) {
        return throughput >= rate * (1 - TOLERANCE);
    }
}
