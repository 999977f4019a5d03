package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import java.util.List;

/**
 * The largest lag that still meets a latency SLO. By Little's law a record behind {@code lag}
 * others waits lag / throughput, so the SLO holds while lag <= per-task rate x tasks x SLO.
 */
public final class LagThreshold {

    private LagThreshold() {}

    public static LagThresholdResult predict(LagThresholdRequest request) {
        double perTaskRate = Inputs.positive("perTaskRate", request.perTaskRate());
        int tasks = Inputs.count("tasks", request.tasks(), 1);
        double slo = Inputs.positive("latencySloSeconds", request.latencySloSeconds());
        double drainRate = perTaskRate * tasks;
        // the slack keeps 0.7 x 10 x 10 = 69.99999999999999 from losing a record to floating point
        double threshold = Math.floor(drainRate * slo * (1 + ScalingModel.TOLERANCE));
        if (threshold >= Long.MAX_VALUE) {
            throw new InvalidInputException(
                    "latencySloSeconds",
                    "gives a lag above " + Numbers.format(Long.MAX_VALUE) + " records with this {0} and {1}: lower it",
                    "perTaskRate",
                    "tasks");
        }
        return new LagThresholdResult(
                perTaskRate,
                tasks,
                slo,
                drainRate,
                (long) threshold,
                List.of(
                        "the tasks drain " + Numbers.format(drainRate) + " records/s (" + tasks + " x "
                                + Numbers.format(perTaskRate) + "), their sustained rate",
                        "latency is Little's law, lag / throughput: an average, not a percentile",
                        "alert when lag stays above the threshold for more than one measurement window, not on one sample"));
    }
}
