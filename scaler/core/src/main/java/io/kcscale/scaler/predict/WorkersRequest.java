package io.kcscale.scaler.predict;

/**
 * What {@code predict workers} takes, field for flag: while the connector processed {@code measuredRate}
 * records/s its workers' processes used {@code cpuCores} cores in all; each worker gets {@code coresPerWorker}.
 * {@code perTaskRate} (optional) turns the answer into tasks per worker; {@code utilization} defaults to 0.8.
 */
public record WorkersRequest(
        Double targetRate,
        Double cpuCores,
        Double measuredRate,
        Double coresPerWorker,
        Double perTaskRate,
        Double utilization) {}
