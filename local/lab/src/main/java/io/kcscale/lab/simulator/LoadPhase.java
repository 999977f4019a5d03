package io.kcscale.lab.simulator;

import io.kcscale.vocabulary.Arrival;

/**
 * One stretch of a load trace: records/s offered to the topic for a while.
 *
 * @param name a short label for reports, e.g. {@code 4x}
 */
public record LoadPhase(String name, double seconds, double ratePerSecond, Arrival arrival) {

    public LoadPhase {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a load phase needs a name");
        }
        if (!(seconds > 0 && Double.isFinite(seconds))) {
            throw new IllegalArgumentException("phase " + name + ": seconds must be positive, got " + seconds);
        }
        if (!(ratePerSecond >= 0 && Double.isFinite(ratePerSecond))) {
            throw new IllegalArgumentException(
                    "phase " + name + ": the rate must be 0 or more records/s, got " + ratePerSecond);
        }
        if (arrival == null) {
            throw new IllegalArgumentException("phase " + name + ": the arrival process must be set");
        }
        if (arrival == Arrival.BURSTS) {
            // a phase has one rate; a burst is a phase of its own
            throw new IllegalArgumentException("phase " + name + ": arrivals must be constant or poisson, got bursts");
        }
    }
}
