package io.kcscale.lab.simulator;

import io.kcscale.vocabulary.Arrivals;

/**
 * One stretch of a load trace: records/s offered to the topic for a while.
 *
 * @param name a short label for reports, e.g. {@code 4x}
 */
public record LoadPhase(String name, double seconds, double ratePerSecond, Arrivals arrivals) {

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
        if (arrivals == null) {
            throw new IllegalArgumentException("phase " + name + ": its arrivals must be set");
        }
        if (arrivals == Arrivals.BURSTS) {
            // a phase has one rate; a burst is a phase of its own
            throw new IllegalArgumentException("phase " + name + ": arrivals must be steady or poisson, got bursts");
        }
    }
}
