package io.kcscale.lab.simulator;

import java.util.Locale;

/**
 * The load shapes the autoscale benchmark compares rules on, each a trace and what the pipeline under it is like:
 * rates in multiples of one task's capacity.
 */
public enum TraceShape {
    /** The original comparison: 1×, a step to 4×, 1×, then Poisson noise ({@link LoadTrace#standard}). */
    STANDARD("1x 120 s, 4x 300 s, 1x 300 s, 1x Poisson 300 s"),
    STEP("1x 120 s, 4x 840 s, 1x 840 s"),
    RAMP("1x 120 s, to 6x over 600 s, 6x 300 s, to 1x over 600 s, 1x 180 s"),
    DIURNAL("Poisson from 1x to 4x and back along a cosine over 1,800 s"),
    SPIKE("1x 300 s, 8x for 60 s, 1x 1,440 s"),
    /** The step with keys whose popularity follows Zipf's law: a few partitions carry much more than others. */
    HOT_KEY("the step, with 1,000 keys of Zipf popularity (exponent 1): the hottest key carries 13% of the records"),
    /** The step on a group whose every rebalance stops consumption for 30 s (large state, slow joins). */
    EXPENSIVE_REBALANCE("the step, every rebalance stopping consumption for 30 s");

    /**
     * The hot key trace's Zipf exponent: the most popular of 1,000 keys carries 1 / H(1000) = 13% of the records, so
     * at 4× the task that holds its partition needs more than its share of the capacity.
     */
    static final double HOT_KEY_SKEW = 1.0;
    /** The expensive rebalance's pause: a group that restores state or waits for slow members. */
    static final double EXPENSIVE_REBALANCE_PAUSE_SECONDS = 30;

    private final String description;

    TraceShape(String description) {
        this.description = description;
    }

    /** The name on the command line, e.g. {@code hot-key}. */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public String description() {
        return description;
    }

    /** The shape named {@code flag}; empty-handed callers get the names in the message. */
    public static TraceShape of(String flag) {
        for (TraceShape s : values()) {
            if (s.flagName().equals(flag)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--trace must be one of " + names() + ", got " + flag);
    }

    public static String names() {
        StringBuilder b = new StringBuilder();
        for (TraceShape s : values()) {
            b.append(b.length() == 0 ? "" : ", ").append(s.flagName());
        }
        return b.toString();
    }

    /** The load, in multiples of {@code oneTaskRate}. */
    public LoadTrace trace(double oneTaskRate) {
        return switch (this) {
            case STANDARD -> LoadTrace.standard(oneTaskRate);
            case STEP, HOT_KEY, EXPENSIVE_REBALANCE -> LoadTrace.step(oneTaskRate);
            case RAMP -> LoadTrace.ramp(oneTaskRate);
            case DIURNAL -> LoadTrace.diurnal(oneTaskRate);
            case SPIKE -> LoadTrace.spike(oneTaskRate);
        };
    }

    /** Whether the shape changes the pipeline, not only the load: then only the simulator can run it. */
    public boolean simulatorOnly() {
        return this == HOT_KEY || this == EXPENSIVE_REBALANCE;
    }

    /** The simulated pipeline under this shape: {@code base} with its keys or rebalances changed. */
    public SimulationSettings pipeline(SimulationSettings base) {
        return switch (this) {
            case HOT_KEY -> base.toBuilder().keySkew(HOT_KEY_SKEW).build();
            case EXPENSIVE_REBALANCE ->
                base.toBuilder()
                        .rebalancePauseSeconds(EXPENSIVE_REBALANCE_PAUSE_SECONDS)
                        .build();
            default -> base;
        };
    }
}
