package io.kcscale.lab.chaos;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * What {@code bench chaos} prints: the reconciliation first, then the faults and how the sink went through them.
 *
 * @param pending         records the sink had not reached when the drain's deadline passed (0 when drained)
 * @param maxLagSeconds   the oldest uncommitted record's age, at its largest over the run (a reading a second)
 * @param recoverySeconds each fault's, in order; null for one the sink did not recover from in time
 * @param drained         whether the sink committed the whole topic before the drain's deadline
 * @param seconds         the whole run, the stack's start and stop included
 */
@JsonPropertyOrder({
    "records",
    "indexed",
    "lost",
    "duplicated",
    "pending",
    "malformed",
    "malformedToDeadLetter",
    "faults",
    "maxLagSeconds",
    "recoverySeconds",
    "sinkMode",
    "seed",
    "loadPerSecond",
    "drained",
    "lostExamples",
    "seconds"
})
public record ChaosResult(
        long records,
        long indexed,
        long lost,
        long duplicated,
        long pending,
        long malformed,
        long malformedToDeadLetter,
        List<FaultOutcome> faults,
        double maxLagSeconds,
        List<Double> recoverySeconds,
        String sinkMode,
        long seed,
        double loadPerSecond,
        boolean drained,
        List<String> lostExamples,
        double seconds) {

    static ChaosResult of(
            Reconciliation r,
            List<FaultOutcome> faults,
            double maxLagSeconds,
            String sinkMode,
            long seed,
            double loadPerSecond,
            boolean drained,
            double seconds) {
        return new ChaosResult(
                r.records(),
                r.indexed(),
                r.lost(),
                r.duplicated(),
                r.pending(),
                r.malformed(),
                r.malformedToDeadLetter(),
                List.copyOf(faults),
                maxLagSeconds,
                faults.stream().map(FaultOutcome::recoverySeconds).toList(),
                sinkMode,
                seed,
                loadPerSecond,
                drained,
                r.lostExamples(),
                seconds);
    }

    /** Nothing lost or duplicated, every malformed record in the dead-letter topic, every fault recovered from. */
    public boolean passed() {
        return lost == 0
                && duplicated == 0
                && pending == 0
                && malformedToDeadLetter == malformed
                && drained
                && recoverySeconds.stream().allMatch(Objects::nonNull);
    }
}
