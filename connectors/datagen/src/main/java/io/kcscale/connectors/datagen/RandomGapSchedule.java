package io.kcscale.connectors.datagen;

import java.util.Random;
import java.util.function.DoubleSupplier;

/** Records separated by independent random gaps, each due one gap after the previous one. */
final class RandomGapSchedule implements ArrivalSchedule {

    private final DoubleSupplier gapNanos;
    private double offsetNanos;

    private RandomGapSchedule(DoubleSupplier gapNanos) {
        this.gapNanos = gapNanos;
    }

    /** A Poisson process: exponential gaps with mean 1/rate. */
    static RandomGapSchedule poisson(double recordsPerSecond, Random random) {
        double meanGapNanos = 1e9 / recordsPerSecond;
        // inverse transform; 1 - u lies in (0, 1], so the logarithm stays finite
        return new RandomGapSchedule(() -> -Math.log(1.0 - random.nextDouble()) * meanGapNanos);
    }

    /**
     * kafka-connect-datagen's pacing without a rate: gaps uniform between 0 and max.interval (mean
     * max.interval/2); 0 means no waiting at all.
     */
    static RandomGapSchedule uniform(long maxIntervalMs, Random random) {
        double maxGapNanos = maxIntervalMs * 1e6;
        return new RandomGapSchedule(() -> random.nextDouble() * maxGapNanos);
    }

    @Override
    public long nextOffsetNanos() {
        offsetNanos += gapNanos.getAsDouble();
        return Math.round(offsetNanos);
    }
}
