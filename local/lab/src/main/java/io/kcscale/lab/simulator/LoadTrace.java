package io.kcscale.lab.simulator;

import io.kcscale.vocabulary.Arrival;
import java.util.List;

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
                new LoadPhase("1x", 120, oneTaskRate, Arrival.CONSTANT),
                new LoadPhase("4x", 300, 4 * oneTaskRate, Arrival.CONSTANT),
                new LoadPhase("1x again", 300, oneTaskRate, Arrival.CONSTANT),
                new LoadPhase("1x poisson", 300, oneTaskRate, Arrival.POISSON)));
    }

    /** The same phases, each {@code factor} times as long (a reduced trace for the real pipeline). */
    public LoadTrace shortened(double factor) {
        return new LoadTrace(phases.stream()
                .map(p -> new LoadPhase(p.name(), p.seconds() * factor, p.ratePerSecond(), p.arrival()))
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
