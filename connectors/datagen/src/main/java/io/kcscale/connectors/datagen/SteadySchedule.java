package io.kcscale.connectors.datagen;

/** Record i is due at i/rate: computed from i, not summed, so rounding never accumulates. */
final class SteadySchedule implements ArrivalSchedule {

    private final double nanosPerRecord;
    private long index;

    SteadySchedule(double recordsPerSecond) {
        this.nanosPerRecord = 1e9 / recordsPerSecond;
    }

    @Override
    public long nextOffsetNanos() {
        return Math.round(index++ * nanosPerRecord);
    }
}
