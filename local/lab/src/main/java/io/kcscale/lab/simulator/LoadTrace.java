package io.kcscale.lab.simulator;

import io.kcscale.vocabulary.Arrivals;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * The load a benchmark offers, phase after phase: data, so the same trace drives the simulator and
 * the real pipeline. Each phase after the first is a load step the autoscaler must follow.
 */
public record LoadTrace(List<LoadPhase> phases) {

    public LoadTrace {
        if (phases == null || phases.isEmpty()) {
            throw new IllegalArgumentException("a load trace needs at least one phase");
        }
        phases = List.copyOf(phases);
    }

    /**
     * The trace, in multiples of one task's capacity: steady at 1× for 120 s, a step to 4× for
     * 300 s, back to 1× for 300 s, then 300 s of Poisson arrivals at 1×.
     */
    public static LoadTrace standard(double oneTaskRate) {
        return new LoadTrace(List.of(
                new LoadPhase("1x", 120, oneTaskRate, Arrivals.STEADY),
                new LoadPhase("4x", 300, 4 * oneTaskRate, Arrivals.STEADY),
                new LoadPhase("1x again", 300, oneTaskRate, Arrivals.STEADY),
                new LoadPhase("1x poisson", 300, oneTaskRate, Arrivals.POISSON)));
    }

    /** How long each shape below runs: long enough for every peer's longest time constant to fit twice at most scaled. */
    public static final double SHAPE_SECONDS = 1800;

    /** Phases of a shape whose rate changes continuously: one every this many seconds. */
    static final double SLICE_SECONDS = 10;

    /** Steady at 1× one task's capacity for 120 s, a step to 4× for 840 s, back to 1× for 840 s. */
    public static LoadTrace step(double oneTaskRate) {
        return new LoadTrace(List.of(
                new LoadPhase("1x", 120, oneTaskRate, Arrivals.STEADY),
                new LoadPhase("4x", 840, 4 * oneTaskRate, Arrivals.STEADY),
                new LoadPhase("1x again", 840, oneTaskRate, Arrivals.STEADY)));
    }

    /** 1× for 120 s, up to 6× over 600 s, 6× for 300 s, down to 1× over 600 s, 1× for 180 s. */
    public static LoadTrace ramp(double oneTaskRate) {
        List<LoadPhase> phases = new ArrayList<>();
        phases.add(new LoadPhase("1x", 120, oneTaskRate, Arrivals.STEADY));
        phases.addAll(slices("up", 600, f -> oneTaskRate * (1 + 5 * f), Arrivals.STEADY));
        phases.add(new LoadPhase("6x", 300, 6 * oneTaskRate, Arrivals.STEADY));
        phases.addAll(slices("down", 600, f -> oneTaskRate * (6 - 5 * f), Arrivals.STEADY));
        phases.add(new LoadPhase("1x again", 180, oneTaskRate, Arrivals.STEADY));
        return new LoadTrace(phases);
    }

    /** A day in 1,800 s: Poisson arrivals from 1× at night to 4× at noon and back, along a cosine. */
    public static LoadTrace diurnal(double oneTaskRate) {
        return new LoadTrace(slices(
                "day", SHAPE_SECONDS, f -> oneTaskRate * (2.5 - 1.5 * Math.cos(2 * Math.PI * f)), Arrivals.POISSON));
    }

    /** 1× for 300 s, a spike to 8× for 60 s, 1× for 1,440 s. */
    public static LoadTrace spike(double oneTaskRate) {
        return new LoadTrace(List.of(
                new LoadPhase("1x", 300, oneTaskRate, Arrivals.STEADY),
                new LoadPhase("8x spike", 60, 8 * oneTaskRate, Arrivals.STEADY),
                new LoadPhase("1x again", 1440, oneTaskRate, Arrivals.STEADY)));
    }

    /** {@code seconds} cut into slices, each at the rate {@code rate} gives for the slice's middle (0..1 of the way). */
    private static List<LoadPhase> slices(String name, double seconds, DoubleUnaryOperator rate, Arrivals arrivals) {
        int n = (int) Math.round(seconds / SLICE_SECONDS);
        List<LoadPhase> phases = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            phases.add(new LoadPhase(name + " " + (i + 1), seconds / n, rate.applyAsDouble((i + 0.5) / n), arrivals));
        }
        return phases;
    }

    /** The same phases, each {@code factor} times as long (a reduced trace for the real pipeline). */
    public LoadTrace shortened(double factor) {
        return new LoadTrace(phases.stream()
                .map(p -> new LoadPhase(p.name(), p.seconds() * factor, p.ratePerSecond(), p.arrivals()))
                .toList());
    }

    public double durationSeconds() {
        return phases.stream().mapToDouble(LoadPhase::seconds).sum();
    }

    /** When phase {@code index} starts, in seconds from the trace's start. */
    public double startOf(int index) {
        return phases.subList(0, index).stream().mapToDouble(LoadPhase::seconds).sum();
    }

    /** The index of the phase in force at {@code seconds}; the last one past the end. */
    public int indexAt(double seconds) {
        double end = 0;
        for (int i = 0; i < phases.size(); i++) {
            end += phases.get(i).seconds();
            if (seconds < end) {
                return i;
            }
        }
        return phases.size() - 1;
    }

    public LoadPhase phaseAt(double seconds) {
        return phases.get(indexAt(seconds));
    }
}
