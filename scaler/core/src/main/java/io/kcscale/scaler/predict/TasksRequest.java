package io.kcscale.scaler.predict;

import java.util.List;

/**
 * What {@code predict tasks} takes, field for flag. Give either {@code perTaskRate} or
 * {@code measurements}; {@code windowSeconds} and {@code quantile} go with {@code arrivals = poisson}.
 */
public record TasksRequest(
        Double targetRate,
        Double perTaskRate,
        List<Measurement> measurements,
        Double utilization,
        String arrivals,
        Double windowSeconds,
        Double quantile,
        Double lag) {}
