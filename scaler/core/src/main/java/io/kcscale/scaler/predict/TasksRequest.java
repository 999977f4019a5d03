package io.kcscale.scaler.predict;

import java.util.List;

/**
 * What {@code predict tasks} takes, field for flag. Give one of {@code perTaskRate}, {@code measurements} or
 * {@code connector} (the per-task capacity measured live on that sink connector, which only a scaler observing it
 * answers); {@code burstWindowSeconds} and {@code quantile} go with {@code arrivals = poisson}, {@code intervalMargin}
 * (the share of the estimate each prediction interval is widened by on both sides) with {@code measurements}.
 */
public record TasksRequest(
        Double targetRate,
        Double perTaskRate,
        List<Measurement> measurements,
        Double utilization,
        String arrivals,
        Double burstWindowSeconds,
        Double quantile,
        Double lag,
        Double intervalMargin,
        String connector) {

    /** A request from a per-task rate or measured points. */
    public TasksRequest(
            Double targetRate,
            Double perTaskRate,
            List<Measurement> measurements,
            Double utilization,
            String arrivals,
            Double burstWindowSeconds,
            Double quantile,
            Double lag) {
        this(
                targetRate,
                perTaskRate,
                measurements,
                utilization,
                arrivals,
                burstWindowSeconds,
                quantile,
                lag,
                null,
                null);
    }

    /** This request with the per-task rate given, and no connector. */
    TasksRequest withPerTaskRate(double rate) {
        return new TasksRequest(
                targetRate,
                rate,
                measurements,
                utilization,
                arrivals,
                burstWindowSeconds,
                quantile,
                lag,
                intervalMargin,
                null);
    }
}
