package io.kcscale.connectors.datagen;

/**
 * A square wave: {@code burstRate} for the first {@code burstSeconds} of every period and
 * {@code baseRate} for the rest. Record i's due time inverts the cumulative count exactly, so like
 * {@link SteadySchedule} it does not drift however long it runs.
 */
final class BurstSchedule implements ArrivalSchedule {

    private final double baseRate;
    private final double burstRate;
    private final double burstSeconds;
    private final double periodSeconds;
    private final double recordsInBurst;
    private final double recordsPerPeriod;
    private long index;

    BurstSchedule(double baseRate, double burstRate, double burstSeconds, double periodSeconds) {
        this.baseRate = baseRate;
        this.burstRate = burstRate;
        this.burstSeconds = burstSeconds;
        this.periodSeconds = periodSeconds;
        this.recordsInBurst = burstRate * burstSeconds;
        this.recordsPerPeriod = recordsInBurst + baseRate * (periodSeconds - burstSeconds);
    }

    @Override
    public long nextOffsetNanos() {
        double record = index++;
        double periods = Math.floor(record / recordsPerPeriod);
        double intoPeriod = record - periods * recordsPerPeriod;
        double secondsIntoPeriod = intoPeriod < recordsInBurst
                ? intoPeriod / burstRate
                : burstSeconds + (intoPeriod - recordsInBurst) / baseRate;
        return Math.round((periods * periodSeconds + secondsIntoPeriod) * 1e9);
    }
}
