package io.kcscale.lab.simulator;

/**
 * One stretch of a load trace: records/s offered to the topic for a while.
 *
 * @param name a short label for reports, e.g. {@code 4x}
 */
public record LoadPhase(String name, double seconds, double ratePerSecond, ArrivalProcess arrival) {

    public LoadPhase {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a load phase needs a name");
        }
        if (!(seconds > 0 && Double.isFinite(seconds))) {
            throw new IllegalArgumentException("phase " + name + ": seconds must be positive, got " + seconds);
        }
        if (!(ratePerSecond >= 0 && Double.isFinite(ratePerSecond))) {
            throw new IllegalArgumentException("phase " + name + ": the rate must be 0 or more records/s, got " + ratePerSecond);
        }
        if (arrival == null) {
            throw new IllegalArgumentException("phase " + name + ": the arrival process must be set");
        }
    }
}
