package io.kcscale.connectors.datagen;

import java.util.Random;

/**
 * When each record is due, as an offset from the start of pacing. Offsets are computed from the
 * schedule's own state rather than from when the previous record went out, so slow polls never
 * stretch the schedule.
 */
interface ArrivalSchedule {

    /** Nanoseconds from the start at which the next record is due; never less than the previous one. */
    long nextOffsetNanos();

    /** The schedule the configuration asks for; {@code random} drives the random ones. */
    static ArrivalSchedule forConfig(DatagenConfig config, Random random) {
        if (config.ratePerTask().isEmpty()) {
            return RandomGapSchedule.uniform(config.maxIntervalMs(), random);
        }
        double rate = config.ratePerTask().getAsDouble();
        switch (config.arrivals()) {
            case POISSON:
                return RandomGapSchedule.poisson(rate, random);
            case BURSTS:
                return new BurstSchedule(rate, config.burstRate(), config.burstSeconds(), config.burstPeriodSeconds());
            default:
                return new SteadySchedule(rate);
        }
    }
}
